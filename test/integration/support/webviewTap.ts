/**
 * What the integration suites see of the extension's webview panels, from outside the
 * extension: the tap wraps `vscode.window.createWebviewPanel` (the suites run in the
 * extension's own host and share its `vscode` object), and on each panel it makes, the
 * webview's `postMessage` (every message the extension posted, the last 2,000), its
 * `onDidReceiveMessage` (what the page posted, and a way to deliver a message as if the page
 * had: the extension's listener returns the promise of its handling) and its `html`. Nothing of
 * it is in the extension: `installWebviewTap()` runs before the suites (test/integration/index.ts).
 *
 * The map's pixel read-back (`imageryPixels`) goes to the test page (test/pages/map.ts, served
 * instead of the production page when VS Code runs the extension for its tests), whose answer
 * stops here: the extension never sees either.
 */
import vscode = require('vscode');

type Rgba = [number, number, number, number];
type Listener = (m: unknown) => unknown;

export interface PanelProbe {
  readonly panel: vscode.WebviewPanel;
  /** Messages posted to the webview, oldest first (the last 2,000). */
  readonly posted: readonly unknown[];
  /** The map's imagery layer reports (`imageryStatus`), oldest first. */
  readonly imageryReports: readonly unknown[];
  /** RGBA the map's imagery pane shows at lon/lat points, read back from the test page. */
  imageryPixels(points: [number, number][]): Promise<Rgba[]>;
  /** Resolves once the page has said 'ready' and the extension has handled it (its first messages posted). */
  whenReady(): Promise<void>;
  /** Handles `message` as if the page had posted it; resolves when it was handled. */
  receive(message: unknown): Promise<void>;
}

export interface PanelsApi {
  /** The open map panel, if any. */
  map(): PanelProbe | undefined;
  /** Open STAC item panels keyed `collection/id` (of the item they show). */
  stacItems(): ReadonlyMap<string, PanelProbe>;
  /** Open job graph panels keyed `workflow/job`. */
  jobGraphs(): ReadonlyMap<string, PanelProbe>;
  /** The serializers registered for the view types (what a window reload calls). */
  readonly serializers: Readonly<Record<'eoImagery.map' | 'eoImagery.stacItem' | 'eoImagery.jobGraph', vscode.WebviewPanelSerializer>>;
}

const KEEP = 2000;
const KEEP_REPORTS = 200;

class TappedPanel implements PanelProbe {
  readonly posted: unknown[] = [];
  readonly imageryReports: unknown[] = [];
  /** Named by what the page shows (the STAC item, the job), once the extension has posted it. */
  key?: string;
  private readonly listeners: Listener[] = [];
  private ready = false;
  private waiters: (() => void)[] = [];
  private readonly pixelWaiters = new Map<number, (pixels: Rgba[]) => void>();
  private nextPixels = 1;
  private readonly post: (m: unknown) => Thenable<boolean>;

  constructor(
    readonly viewType: string,
    readonly panel: vscode.WebviewPanel,
  ) {
    const webview = panel.webview as vscode.Webview & Record<string, unknown>;
    this.post = webview.postMessage.bind(webview);
    webview.postMessage = (m: unknown) => {
      this.record(m);
      return this.post(m);
    };
    const on = webview.onDidReceiveMessage;
    (webview as { onDidReceiveMessage: vscode.Event<unknown> }).onDidReceiveMessage = ((
      listener: Listener,
      thisArgs?: unknown,
      disposables?: vscode.Disposable[],
    ) => {
      const bound: Listener = (m) => listener.call(thisArgs, m);
      this.listeners.push(bound);
      return on.call(webview, (m: unknown) => this.fromPage(m, bound), undefined, disposables);
    }) as vscode.Event<unknown>;
    // a page loaded again (its HTML replaced) says 'ready' again
    const html = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(webview), 'html');
    if (html?.get && html.set) {
      const { get, set } = html;
      Object.defineProperty(webview, 'html', {
        configurable: true,
        get: () => get.call(webview),
        set: (v: string) => {
          this.ready = false;
          set.call(webview, v);
        },
      });
    }
    // a hidden page is torn down (no retained context): it says 'ready' again when shown
    panel.onDidChangeViewState(() => {
      if (!panel.visible) this.ready = false;
    });
  }

  whenReady(): Promise<void> {
    return this.ready ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  async receive(message: unknown): Promise<void> {
    await Promise.all(this.listeners.map((l) => this.handled(message, l)));
  }

  imageryPixels(points: [number, number][]): Promise<Rgba[]> {
    const requestId = this.nextPixels++;
    return new Promise((resolve) => {
      this.pixelWaiters.set(requestId, resolve);
      const m = { type: 'imageryPixels', requestId, points };
      this.record(m);
      void this.post(m);
    });
  }

  /** A message the page posted, on its way to the extension's listener. */
  private fromPage(m: unknown, listener: Listener): unknown {
    const msg = (m ?? {}) as { type?: unknown; requestId?: number; pixels?: Rgba[]; id?: string; report?: object };
    if (msg.type === 'imageryPixels') {
      // the test page's answer: for the tap alone
      this.pixelWaiters.get(msg.requestId as number)?.(msg.pixels ?? []);
      this.pixelWaiters.delete(msg.requestId as number);
      return undefined;
    }
    return this.handled(m, listener);
  }

  private async handled(m: unknown, listener: Listener): Promise<void> {
    const msg = (m ?? {}) as { type?: unknown; id?: string; report?: object };
    if (msg.type === 'imageryStatus') {
      this.imageryReports.push({ id: msg.id, ...msg.report });
      if (this.imageryReports.length > KEEP_REPORTS) this.imageryReports.shift();
    }
    if (msg.type !== 'ready') {
      await listener(m);
      return;
    }
    this.ready = false;
    await listener(m);
    this.ready = true;
    for (const w of this.waiters.splice(0)) w();
  }

  private record(m: unknown): void {
    this.posted.push(m);
    if (this.posted.length > KEEP) this.posted.splice(0, this.posted.length - KEEP);
    const msg = m as { type?: string; item?: { collection?: string; id?: string }; state?: { workflowId?: string; jobId?: string } };
    if (msg?.type === 'item' && msg.item) this.key = `${msg.item.collection}/${msg.item.id}`;
    if (msg?.type === 'graph' && msg.state) this.key = `${msg.state.workflowId}/${msg.state.jobId}`;
  }
}

const open: TappedPanel[] = [];
let installed = false;

/** Wraps `createWebviewPanel` for the rest of the run (once). */
export function installWebviewTap(): void {
  if (installed) return;
  installed = true;
  const create = vscode.window.createWebviewPanel;
  (vscode.window as { createWebviewPanel: typeof create }).createWebviewPanel = (...args: Parameters<typeof create>) => {
    const panel = create(...args);
    const tapped = new TappedPanel(args[0], panel);
    open.push(tapped);
    panel.onDidDispose(() => open.splice(open.indexOf(tapped), 1));
    return panel;
  };
}

function byKey(viewType: string): Map<string, PanelProbe> {
  return new Map(open.filter((p) => p.viewType === viewType).map((p, i) => [p.key ?? `(nothing shown yet ${i})`, p]));
}

/** The panels as the suites see them; `serializers` are the extension's own (`services.panels`). */
export function testPanels(panels: Pick<PanelsApi, 'serializers'>): PanelsApi {
  installWebviewTap();
  return {
    map: () => open.filter((p) => p.viewType === 'eoImagery.map').at(-1),
    stacItems: () => byKey('eoImagery.stacItem'),
    jobGraphs: () => byKey('eoImagery.jobGraph'),
    serializers: panels.serializers,
  };
}
