/**
 * "Chart Index Over Time", the page's side: one handler per message the extension sends
 * (src/panels/imagery/seriesMessages.ts). The chart panel in the imagery chunk reads the
 * dates, charts them and sends each point (media/map/imagery/seriesPanel.ts); this starts it,
 * passes a cancel on and answers with the chart as PNG.
 */
import type { SERIES_TO_PAGE } from '../../../src/panels/imagery/seriesMessages';
import type { Handlers } from '../../../src/panels/webview/messages';
import { failure, type ChannelPage } from './page';

export function seriesHandlers(page: ChannelPage): Handlers<typeof SERIES_TO_PAGE> {
  return {
    seriesStart: async ({ requestId, request, overlay, host }) => {
      let tools;
      try {
        tools = await page.tools();
      } catch (e) {
        page.post({ type: 'seriesDone', requestId, ...failure(e) });
        return;
      }
      await tools.series.start(requestId, request, overlay === true, host === true);
    },
    // the chunk loads while the person picks; a failure is said when the series starts
    seriesPrepare: async () => {
      try {
        (await page.tools()).series.prepare();
      } catch {
        // Recovers from imagery code that did not load: the series that follows says why.
      }
    },
    // no imagery was ever asked for: no series runs
    seriesCancel: async ({ requestId }) => void (page.imageryAsked() && (await page.tools()).series.cancelRun(requestId)),
    // the answer to a date this page asked the host for: its series panel is open
    seriesStatsReply: async (m) => void (page.imageryAsked() && (await page.tools()).series.statsReply(m)),
    seriesPng: async ({ requestId }) => {
      try {
        const bytes = await (await page.tools()).series.png();
        page.post({ type: 'seriesPngReply', requestId, ok: true, bytes });
      } catch (e) {
        page.post({ type: 'seriesPngReply', requestId, ok: false, error: failure(e).error });
      }
    },
  };
}
