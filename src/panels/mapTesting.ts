/**
 * The map's test hooks, installed only when VS Code runs the extension for its tests
 * (`isTestMode`): the messages posted to the webview (`PostRecorder`), the imagery layers'
 * reports, and the pixel read-back (`imageryPixels`, which the webview answers only when its
 * `init` said `testing`). A normal activation builds none of it: the map keeps no reports and
 * neither asks for pixels nor accepts an answer.
 */
import type * as vscode from 'vscode';
import { MAP_TEST_FROM_PAGE, type MAP_FROM_PAGE } from './mapMessages';
import { PostRecorder, type PanelProbe } from './probe';
import type { ToMapTestMessage } from './mapMessages';
import type { Handlers } from './webview/messages';

type Rgba = [number, number, number, number];

/** Layer reports kept (the oldest go first). */
const KEEP_REPORTS = 200;

export class MapTestHooks {
  readonly recorder = new PostRecorder();
  readonly table = MAP_TEST_FROM_PAGE;
  private readonly reports: unknown[] = [];
  private readonly pixelWaiters = new Map<number, (pixels: Rgba[]) => void>();
  private nextPixelRequest = 1;

  constructor(private readonly post: (m: ToMapTestMessage) => void) {}

  /** The webview's messages only the tests listen to (a normal map ignores `imageryStatus`). */
  readonly handlers: Handlers<typeof MAP_TEST_FROM_PAGE> & Pick<Handlers<typeof MAP_FROM_PAGE>, 'imageryStatus'> = {
    imageryPixels: (m) => {
      this.pixelWaiters.get(m.requestId)?.(m.pixels);
      this.pixelWaiters.delete(m.requestId);
    },
    imageryStatus: (m) => {
      this.reports.push({ id: m.id, ...m.report });
      if (this.reports.length > KEEP_REPORTS) this.reports.shift();
    },
  };

  probe(panel: vscode.WebviewPanel, receive: (m: unknown) => Promise<void>): PanelProbe {
    return {
      panel,
      posted: this.recorder.posted,
      whenReady: () => this.recorder.whenReady(),
      receive,
      imageryReports: this.reports,
      imageryPixels: (points) => this.imageryPixels(points),
    };
  }

  /** What the imagery pane shows at lon/lat points (RGBA), asked of the webview. */
  private imageryPixels(points: [number, number][]): Promise<Rgba[]> {
    const requestId = this.nextPixelRequest++;
    return new Promise((resolve) => {
      this.pixelWaiters.set(requestId, resolve);
      this.post({ type: 'imageryPixels', requestId, points });
    });
  }
}
