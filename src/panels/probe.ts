/**
 * What integration tests can see of an open panel: every message the extension posted to its
 * webview (bounded), a wait for the webview's next 'ready', and a way to deliver a message as
 * if the webview had sent it. The extension runs as its own bundle, so tests reach this
 * through `services.panels`, never through the panel classes. Installed only when VS Code runs
 * the extension for its tests (`isTestMode`): a normal activation records nothing.
 */
import vscode = require('vscode');

/** VS Code runs the extension for its tests: the panels install their probes. */
export function isTestMode(context: vscode.ExtensionContext): boolean {
  return context.extensionMode === vscode.ExtensionMode.Test;
}

export interface PanelProbe {
  readonly panel: vscode.WebviewPanel;
  /** Messages posted to the webview, oldest first (the last 2,000). */
  readonly posted: readonly unknown[];
  /** Imagery layer reports the webview sent (`imageryStatus`), oldest first. */
  readonly imageryReports?: readonly unknown[];
  /** RGBA the map's imagery pane shows at lon/lat points, read back from the webview. */
  imageryPixels?(points: [number, number][]): Promise<[number, number, number, number][]>;
  /** Resolves once the webview has said 'ready' and its initial messages were posted. */
  whenReady(): Promise<void>;
  /** Handles `message` as if the webview had posted it; resolves when it was handled. */
  receive(message: unknown): Promise<void>;
}

export interface PanelsApi {
  /** The open map panel, if any (test mode only; otherwise always undefined). */
  map(): PanelProbe | undefined;
  /** Open STAC item panels keyed `collection/id` (test mode only; otherwise empty). */
  stacItems(): ReadonlyMap<string, PanelProbe>;
  /** Open job graph panels keyed `workflow/job`, with the job reads each made. */
  jobGraphs(): ReadonlyMap<string, PanelProbe & { reads: number }>;
  /** The serializers registered for the view types (what a window reload calls). */
  readonly serializers: Readonly<Record<'eoImagery.map' | 'eoImagery.stacItem' | 'eoImagery.jobGraph', vscode.WebviewPanelSerializer>>;
}

const KEEP = 2000;

/** Records posts and readiness for one panel; the panel hosts own one each. */
export class PostRecorder {
  readonly posted: unknown[] = [];
  private ready = false;
  private waiters: (() => void)[] = [];

  record(m: unknown): void {
    this.posted.push(m);
    if (this.posted.length > KEEP) this.posted.splice(0, this.posted.length - KEEP);
  }

  /** The webview (re)loaded and is waiting for its data: readiness starts over. */
  reset(): void {
    this.ready = false;
  }

  markReady(): void {
    this.ready = true;
    for (const w of this.waiters.splice(0)) w();
  }

  whenReady(): Promise<void> {
    return this.ready ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
