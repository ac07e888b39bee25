/**
 * "Save View to GeoTIFF…/PNG", the page's side: one handler per message the extension sends
 * (src/panels/imagery/clipMessages.ts). The imagery chunk frames, reads and encodes
 * (media/map/imagery/clip.ts through ImageryTools); this answers, reports progress and passes
 * a cancel on.
 */
import type { CLIP_TO_PAGE } from '../../../src/panels/imagery/clipMessages';
import type { Handlers } from '../../../src/panels/webview/messages';
import { failure, Running, type ChannelPage } from './page';

export function clipHandlers(page: ChannelPage): Handlers<typeof CLIP_TO_PAGE> {
  const running = new Running();
  return {
    clipInfo: async ({ requestId }) => {
      try {
        // no imagery was ever shown: no layer to save, and no reason to load the chunk
        const layers = page.imageryAsked() ? await (await page.tools()).clipInfo() : [];
        page.post({ type: 'clipReply', requestId, ok: true, result: { layers } });
      } catch (e) {
        page.post({ type: 'clipReply', requestId, ...failure(e) });
      }
    },
    clip: ({ requestId, request }) =>
      running.run(requestId, async (abort) => {
        try {
          const tools = await page.tools();
          const result = await tools.clip(request, abort.signal, (done, total) => page.post({ type: 'clipProgress', requestId, done, total }));
          // the clip's bytes are handed over, not copied: nothing here reads them again
          const bytes = (result as { bytes?: unknown }).bytes;
          page.post({ type: 'clipReply', requestId, ok: true, result }, bytes instanceof ArrayBuffer ? [bytes] : undefined);
        } catch (e) {
          page.post({ type: 'clipReply', requestId, ...failure(e, abort) });
        }
      }),
    clipCancel: ({ requestId }) => running.cancel(requestId),
  };
}
