/**
 * "Export Timelapse…", the page's side: one handler per message the extension sends
 * (src/panels/imagery/timelapseMessages.ts). The imagery chunk draws each date and encodes the
 * frames (media/map/imagery/timelapse.ts); this answers, reports each date and passes a cancel on.
 */
import type { TIMELAPSE_TO_PAGE } from '../../../src/panels/imagery/timelapseMessages';
import type { Handlers } from '../../../src/panels/webview/messages';
import { failure, Running, type ChannelPage } from './page';

export function timelapseHandlers(page: ChannelPage): Handlers<typeof TIMELAPSE_TO_PAGE> {
  const running = new Running();
  return {
    timelapseSource: async ({ requestId }) => {
      try {
        // no imagery was ever shown: no time slider either, and no reason to load the chunk
        const source = page.imageryAsked() ? (await page.tools()).timelapseSource() : undefined;
        page.post({ type: 'timelapseReply', requestId, ok: true, result: source ? { source } : {} });
      } catch (e) {
        page.post({ type: 'timelapseReply', requestId, ...failure(e) });
      }
    },
    timelapse: ({ requestId, request }) =>
      running.run(requestId, async (abort) => {
        try {
          const tools = await page.tools();
          const progress = (done: number, total: number, date: string) => page.post({ type: 'timelapseProgress', requestId, done, total, date });
          const result = await tools.renderTimelapse(request, abort.signal, progress);
          page.post({ type: 'timelapseReply', requestId, ok: true, result });
        } catch (e) {
          page.post({ type: 'timelapseReply', requestId, ...failure(e, abort) });
        }
      }),
    timelapseCancel: ({ requestId }) => running.cancel(requestId),
  };
}
