/**
 * The STAC item panel's extension side: one panel per item (opening it again brings it
 * forward), a client of the webview controller (webview/controller.ts). It reads the item
 * through the client, sends it to the webview, fetches a thumbnail itself (so the webview
 * needs no network and no token), and maps the action buttons to commands that other parts
 * of the extension register.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../api/client';
import type { ArchiveItem } from '../api/records';
import type { ExtensionServices } from '../services';
import { describeError } from '../ui/showError';
import { openExternalChecked, panelOptions } from './host';
import { runCommand } from '../ui/runCommand';
import { fetchThumbnail } from './thumbnail';
import { stacItemUrl } from './stacUrl';
import { isWebUrl, type StacAction, type StacState } from './protocol';
import { STAC_VIEW_TYPE } from './viewTypes';
import { STAC_FROM_PAGE, type STAC_TO_PAGE, type ToStacMessage } from './stacMessages';
import { nothingToRestore, WebviewController } from './webview/controller';
export { STAC_VIEW_TYPE } from './viewTypes';

/** The editor tab's title for an item. */
function panelTitle(id: string): string {
  return l10n.t('STAC {0}', id);
}

export class StacItemPanel implements vscode.Disposable {
  private static readonly open = new Map<string, StacItemPanel>();
  private readonly view: WebviewController<typeof STAC_TO_PAGE, typeof STAC_FROM_PAGE>;
  private item?: ArchiveItem;
  private loading?: Promise<void>;

  static show(services: ExtensionServices, ref: { collection: string; id: string }, item?: ArchiveItem): StacItemPanel {
    const existing = StacItemPanel.open.get(`${ref.collection}/${ref.id}`);
    if (existing) {
      existing.panel.reveal(undefined, false);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(STAC_VIEW_TYPE, panelTitle(ref.id), vscode.ViewColumn.Active, panelOptions(services.context));
    return new StacItemPanel(services, panel, ref, item);
  }

  /**
   * For a click on a footprint: the item opens beside the map, which keeps the focus, and
   * one preview panel follows the clicks (rather than a new tab per click).
   */
  static preview(services: ExtensionServices, ref: { collection: string; id: string }): StacItemPanel {
    const existing = StacItemPanel.open.get(`${ref.collection}/${ref.id}`);
    if (existing) {
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const previous = StacItemPanel.previewing;
    if (previous) {
      previous.retarget(ref);
      previous.panel.reveal(undefined, true);
      return previous;
    }
    const panel = vscode.window.createWebviewPanel(
      STAC_VIEW_TYPE,
      panelTitle(ref.id),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      panelOptions(services.context),
    );
    const p = new StacItemPanel(services, panel, ref);
    StacItemPanel.previewing = p;
    return p;
  }

  private static previewing: StacItemPanel | undefined;

  /** Shows another item in this panel. */
  private retarget(ref: { collection: string; id: string }): void {
    StacItemPanel.open.delete(this.key);
    this.ref = ref;
    this.item = undefined;
    StacItemPanel.open.set(this.key, this);
    this.panel.title = panelTitle(ref.id);
    if (this.view.isReady) this.loading ??= this.load().finally(() => (this.loading = undefined));
  }

  static revive(services: ExtensionServices, panel: vscode.WebviewPanel, state: StacState | undefined): void {
    if (!state?.collection || !state.id) {
      const message = l10n.t('This panel has nothing to restore; open the item again from the Archive view.');
      nothingToRestore(services, panel, { name: 'stacItem', title: l10n.t('STAC item') }, message);
      return;
    }
    new StacItemPanel(services, panel, { collection: state.collection, id: state.id });
  }

  private constructor(
    private readonly services: ExtensionServices,
    panel: vscode.WebviewPanel,
    private ref: { collection: string; id: string },
    item?: ArchiveItem,
  ) {
    this.item = item;
    StacItemPanel.open.set(this.key, this);
    this.view = new WebviewController({
      name: 'STAC item',
      panel,
      services,
      page: { name: 'stacItem', title: panelTitle(ref.id) },
      fromPage: STAC_FROM_PAGE,
      handlers: {
        action: (m) => this.action(m.action),
        openExternal: async (m) => void (await openExternalChecked(m.url)),
        copy: async (m) => {
          await vscode.env.clipboard.writeText(m.text);
          this.post({ type: 'notice', level: 'info', text: l10n.t('Copied.') });
        },
      },
      // the item (read once, kept) and its thumbnail, again for each page that loads
      onReady: () => (this.loading ??= this.load().finally(() => (this.loading = undefined))),
      onDisposed: () => {
        if (StacItemPanel.open.get(this.key) === this) StacItemPanel.open.delete(this.key);
        if (StacItemPanel.previewing === this) StacItemPanel.previewing = undefined;
      },
    });
  }

  get panel(): vscode.WebviewPanel {
    return this.view.panel;
  }

  private get key(): string {
    return `${this.ref.collection}/${this.ref.id}`;
  }

  dispose(): void {
    this.view.dispose();
  }

  private post(m: ToStacMessage): void {
    this.view.post(m);
  }

  private async load(): Promise<void> {
    const ref = this.ref;
    let client: EoClient;
    let item = this.item;
    try {
      client = await this.services.connection.getClient();
      if (!item) {
        this.post({ type: 'loading', label: l10n.t('Loading {0}…', ref.id) });
        item = await client.archives.item(ref.collection, ref.id);
      }
    } catch (e) {
      if (ref !== this.ref) return this.load(); // the preview moved on to another item meanwhile
      this.post({ type: 'error', message: l10n.t('Could not load {0}: {1}', `${ref.collection}/${ref.id}`, describeError(e)) });
      return;
    }
    if (ref !== this.ref) return this.load();
    this.item = item;
    this.post({ type: 'item', item: this.item, stacUrl: this.stacUrl(client) });
    void this.sendThumbnail(this.item);
  }

  private stacUrl(client: EoClient): string {
    return stacItemUrl(client.baseUrl, this.ref, this.item);
  }

  /**
   * Fetches the first thumbnail/overview asset without credentials (the token never goes to
   * asset hosts) and sends it as a data URL; a failure just leaves "No thumbnail".
   */
  private async sendThumbnail(item: ArchiveItem): Promise<void> {
    const entry = Object.entries(item.assets ?? {}).find(
      ([, a]) => Array.isArray(a.roles) && a.roles.some((r) => r === 'thumbnail' || r === 'overview') && isWebUrl(a.href),
    );
    if (!entry) return;
    const [key, asset] = entry;
    try {
      const { type, bytes: buf } = await fetchThumbnail(asset.href, { otherHosts: this.services.connection.otherHosts });
      this.post({ type: 'thumbnail', assetKey: key, dataUrl: `data:${type};base64,${buf.toString('base64')}` });
    } catch (e) {
      this.services.log.info(`STAC ${this.ref.id}: no thumbnail (${describeError(e)})`);
    }
  }

  private async action(action: StacAction): Promise<void> {
    const item = this.item;
    if (!item) return;
    try {
      if (action === 'copyStacUrl') {
        await runCommand('copyStacUrl', item);
        this.post({ type: 'notice', level: 'info', text: l10n.t('STAC URL copied.') });
        return;
      }
      if (action === 'showImagery') {
        await runCommand('showImagery', item);
        return;
      }
      if (action === 'order') await runCommand('orderArchiveItems', item);
      else await runCommand('newInsightInput', { stacItem: item, stacUrl: this.stacUrl(await this.services.connection.getClient()) });
    } catch (e) {
      this.post({ type: 'notice', level: 'error', text: describeError(e) });
    }
  }
}
