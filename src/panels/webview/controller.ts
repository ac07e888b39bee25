/**
 * The extension side of one webview panel, for every panel (map, STAC item, job graph): its
 * page, the ready handshake (a page that (re)loads says `ready` and is sent its data again),
 * a queue of what is posted while the page is not ready (loading, or torn down while hidden:
 * panels keep no context when hidden), dispatch of the page's messages to one handler per row
 * of the page's message table (checked first: `Dispatcher`), and dispose. A panel is a client:
 * it hands over its handlers and what a ready page is sent first.
 */
import vscode = require('vscode');
import type { ExtensionServices } from '../../services';
import { describeError } from '../../ui/showError';
import { panelOptions, renderPanelHtml, type PageName } from '../host';
import { Dispatcher, logOnce, row, type Handlers, type MessageIn, type Row, type Table } from './messages';

/** Every page's first word: it has (re)loaded and waits for its data. */
export const READY = { ready: row() };

export interface ControllerOptions<FromPage extends Table> {
  /** Names the panel in the log, e.g. `map`. */
  name: string;
  panel: vscode.WebviewPanel;
  services: Pick<ExtensionServices, 'context' | 'log'>;
  /** The page's bundle (dist/media/<name>.js), its title, and image hosts it may show (the map's basemaps). */
  page: { name: PageName; title: string; imgSources?: string[] };
  /** What the page posts; its `ready` is the controller's to answer. */
  fromPage: FromPage;
  handlers: Omit<Handlers<FromPage>, 'ready'>;
  /**
   * What a (re)loaded page is sent first, on each `ready`, before anything that waited in the
   * queue. Its promise is the page's `ready` being handled (a STAC item read, a job read).
   */
  onReady(): void | Promise<void>;
  /** The page was torn down (its panel hidden): what it was asked will not be answered. */
  onHidden?(): void;
  onDisposed?(): void;
}

export class WebviewController<ToPage extends Table, FromPage extends Table> implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly queue: MessageIn<ToPage>[] = [];
  private readonly dispatcher: Dispatcher<FromPage>;
  private ready = false;
  private disposed = false;

  constructor(private readonly o: ControllerOptions<FromPage>) {
    const panel = o.panel;
    this.panel = panel;
    const handlers = { ...o.handlers, ready: () => this.onPageReady() } as unknown as Handlers<FromPage>;
    this.dispatcher = new Dispatcher(o.fromPage, handlers, logOnce(o.name, o.services.log, describeError));
    // a revived panel comes back with the options it was saved with: they are ours to set again
    panel.webview.options = panelOptions(o.services.context);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      // the listener's promise is the message handled (a test's wait for `ready` uses it)
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidChangeViewState(() => {
        if (panel.visible || !this.ready) return;
        this.ready = false;
        o.onHidden?.();
      }),
    );
    this.render();
  }

  get isReady(): boolean {
    return this.ready;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Handles `raw` as the page's message (or refuses it); resolves when done, never rejects. */
  receive(raw: unknown): Promise<void> {
    return this.dispatcher.receive(raw);
  }

  /** Sends to the page, or keeps it until the page is ready. */
  post(m: MessageIn<ToPage>): void {
    if (this.ready) this.send(m);
    else this.queue.push(m);
  }

  /** Sends at once, ready or not (an answer to a request the page is waiting for). */
  send(m: MessageIn<ToPage>): void {
    void this.panel.webview.postMessage(m);
  }

  /** Loads the page (again): it will say `ready` and be sent its data. */
  render(imgSources: string[] | undefined = this.o.page.imgSources): void {
    this.ready = false;
    const { context } = this.o.services;
    this.panel.webview.html = renderPanelHtml(this.panel.webview, context, this.o.page.name, this.o.page.title, imgSources);
  }

  /** Something to dispose with the panel. */
  own(...d: vscode.Disposable[]): void {
    this.disposables.push(...d);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.o.onDisposed?.();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.panel.dispose();
  }

  private async onPageReady(): Promise<void> {
    this.ready = true;
    const first = this.o.onReady();
    for (const m of this.queue.splice(0)) this.send(m);
    await first;
  }
}

/**
 * A panel brought back by its serializer without what it showed (its saved state is empty):
 * its page says so, with the way to open it again.
 */
export function nothingToRestore(
  services: Pick<ExtensionServices, 'context' | 'log'>,
  panel: vscode.WebviewPanel,
  page: { name: PageName; title: string },
  message: string,
): WebviewController<{ error: Row<{ message: string }> }, typeof READY> {
  const c: WebviewController<{ error: Row<{ message: string }> }, typeof READY> = new WebviewController({
    name: page.name,
    panel,
    services,
    page,
    fromPage: READY,
    handlers: {},
    onReady: (): void => c.post({ type: 'error', message }),
  });
  return c;
}
