/**
 * The webview panels (map, STAC item, job graph) as one service: built after the sidebar (a footprint's detail can be
 * its sidebar row) and before the commands, which reach the map only through it (`showMap`,
 * `currentMap`: a `MapView`, never the panel class). It keeps the window's one map and
 * holds the serializers that bring the panels back after a window reload (activation
 * registers them, src/deferred.ts, and hands each revival to these).
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { ArchiveItem } from '../api/records';
import type { ExtensionServices } from '../services';
import { runCommand } from '../ui/runCommand';
import { panelOptions, type PanelContext, type SidebarRef } from './host';
import { MAP_VIEW_TYPE, MapPanel } from './mapPanel';
import type { MapView } from './mapView';
import type { DetailRef, MapState, StacState } from './protocol';
import { STAC_VIEW_TYPE, StacItemPanel } from './stacItemPanel';
import { JOB_GRAPH_VIEW_TYPE, JobGraphPanel } from './jobGraph/jobGraphPanel';
import type { JobGraphState } from './jobGraph/protocol';
import type { Job } from '../api/records';

/** What a window reload calls to bring each kind of panel back (activation registers them, src/deferred.ts). */
export type PanelSerializers = Readonly<Record<'eoImagery.map' | 'eoImagery.stacItem' | 'eoImagery.jobGraph', vscode.WebviewPanelSerializer>>;

export class Panels implements vscode.Disposable {
  private readonly ctx: PanelContext;
  readonly serializers: PanelSerializers;
  /** The window's map, while it is open. */
  private mapPanel?: MapPanel;

  /** `deps`: what the panels call on parts built around them (the sidebar, the Create AOI and Save Search flows). */
  constructor(
    private readonly services: ExtensionServices,
    deps: Pick<PanelContext, 'revealInSidebar' | 'createAoi' | 'saveSearch'>,
  ) {
    this.ctx = { services, ...deps, openDetail: (ref, preview) => this.openDetail(ref, preview) };
    this.serializers = {
      [MAP_VIEW_TYPE]: {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => this.reviveMap(panel, state as MapState | undefined),
      },
      [STAC_VIEW_TYPE]: {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => StacItemPanel.revive(services, panel, state as StacState | undefined),
      },
      [JOB_GRAPH_VIEW_TYPE]: {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) =>
          JobGraphPanel.revive(services, panel, state as JobGraphState | undefined),
      },
    };
  }

  dispose(): void {
    this.mapPanel?.dispose();
    JobGraphPanel.closeAll();
  }

  /** Opens the map (or brings the open one forward). */
  showMap(): MapView {
    if (this.mapPanel) {
      this.mapPanel.reveal();
      return this.mapPanel;
    }
    const panel = vscode.window.createWebviewPanel(MAP_VIEW_TYPE, 'EO Map', vscode.ViewColumn.Active, panelOptions(this.services.context));
    return this.newMap(panel, undefined, false);
  }

  /** The open map, if any (nothing is opened). */
  currentMap(): MapView | undefined {
    return this.mapPanel;
  }

  /** Called by the serializer after a window reload, with the state the webview saved. */
  private reviveMap(panel: vscode.WebviewPanel, state: MapState | undefined): void {
    this.mapPanel?.dispose();
    panel.webview.options = panelOptions(this.services.context);
    this.newMap(panel, state, true);
  }

  private newMap(panel: vscode.WebviewPanel, state: MapState | undefined, revived: boolean): MapPanel {
    const map: MapPanel = new MapPanel(this.ctx, panel, {
      state,
      revived,
      onDisposed: () => {
        if (this.mapPanel === map) this.mapPanel = undefined;
      },
    });
    this.mapPanel = map;
    return map;
  }

  /** A job's tasks as a graph, followed live while the job runs; `job` (with its tasks) saves the first read. */
  showJobGraph(ref: JobGraphState, job?: Job): void {
    JobGraphPanel.show(this.services, ref, job);
  }

  showStacItem(ref: { collection: string; id: string }, item?: ArchiveItem): StacItemPanel {
    return StacItemPanel.show(this.services, ref, item);
  }

  /**
   * A footprint's detail: the STAC page for archive items, the sidebar row otherwise. From a
   * click on the map (`preview`) the detail shows beside the map, which keeps the focus.
   */
  async openDetail(ref: DetailRef, preview = false): Promise<void> {
    if (ref.kind === 'archiveItem') {
      if (preview) StacItemPanel.preview(this.services, { collection: ref.collection, id: ref.id });
      else StacItemPanel.show(this.services, { collection: ref.collection, id: ref.id });
      return;
    }
    if (ref.kind === 'insightRun') {
      await runCommand('showInsightOutputs', { aoiId: ref.aoiId, id: ref.id });
      return;
    }
    const found = await this.ctx.revealInSidebar(ref as SidebarRef, { focus: !preview, expand: ref.kind === 'aoi' && !preview });
    if (!found && !preview) void this.services.ui.message('info', notInSidebar(ref as SidebarRef), {});
  }
}

/** Why a footprint's row could not be shown, naming the kind of record in words. */
function notInSidebar(ref: SidebarRef): string {
  switch (ref.kind) {
    case 'aoi':
      return l10n.t("The AOI {0} is not in the sidebar's loaded pages.", ref.id);
    case 'asset':
      return l10n.t("The asset {0} is not in the sidebar's loaded pages.", ref.id);
    case 'orderItem':
      return l10n.t("The order item {0} is not in the sidebar's loaded pages.", ref.id);
    case 'catalog':
      return l10n.t("The catalog {0} is not in the sidebar's loaded pages.", ref.id);
    case 'insightRun':
      return l10n.t("The insight run {0} is not in the sidebar's loaded pages.", ref.id);
  }
}
