/**
 * The map page as the tests and benchmarks load it (esbuild.mjs builds it into out/testMedia;
 * the extension serves it instead of dist/media/map.js only when VS Code runs it for its tests
 * or its development): the page itself, with its app on `window.eoMap`, and the answer to the
 * integration tier's pixel read-back (`imageryPixels`, test/integration/support/webviewTap.ts).
 * None of it is in dist/.
 */
import { app } from '../../media/map/main';
import { vscodeApi } from '../../media/shared/vscodeApi';
import { imageryPixelsAt } from './imageryPixels';

(window as unknown as { eoMap: typeof app }).eoMap = app;

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type?: unknown; requestId?: unknown; points?: unknown };
  if (m?.type !== 'imageryPixels' || typeof m.requestId !== 'number' || !Array.isArray(m.points)) return;
  const points = m.points as [number, number][];
  void app
    .imagery()
    .then(() => {
      const pane = app.map.getPane('eo-imagery');
      const pixels = pane ? imageryPixelsAt(app.map, pane, points) : points.map(() => [0, 0, 0, 0]);
      vscodeApi().postMessage({ type: 'imageryPixels', requestId: m.requestId, pixels });
    })
    .catch(() => undefined);
});
