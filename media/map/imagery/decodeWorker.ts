/**
 * The decoder worker, built into a string that the imagery chunk starts from a blob URL (the
 * map's CSP allows `worker-src blob:` and nothing else). It speaks geotiff.js's pool protocol:
 * a compressed tile in, the decoded bytes out (transferred, not copied). `ping` answers
 * `pong`, so the chunk can check that workers start here before relying on them. Its decoders
 * are the bounded ones (decoders.ts): a tile never decodes past the size it claims. It also
 * takes the statistics of a chart's date (`{ statsId, job }`, seriesStats.ts), so that the
 * sorting of a polygon's values never runs on the page's thread.
 */
import { getDecoder } from 'geotiff';
import { installBoundedDecoders } from './decoders';
import { seriesStatistics, type StatsJob } from '../../../src/panels/imagery/seriesStats';

installBoundedDecoders();

interface Job {
  compression: number;
  decoderParameters: Parameters<typeof getDecoder>[1];
  buffer: ArrayBuffer;
  [extra: string]: unknown;
}

const scope = self as unknown as {
  postMessage(m: unknown, transfer?: Transferable[]): void;
  addEventListener(t: 'message', f: (e: MessageEvent) => void): void;
};

scope.addEventListener('message', (e: MessageEvent) => {
  if (e.data === 'ping') {
    scope.postMessage('pong');
    return;
  }
  const stats = e.data as { statsId?: number; job?: StatsJob };
  if (typeof stats?.statsId === 'number' && stats.job) {
    try {
      scope.postMessage({ statsId: stats.statsId, result: seriesStatistics(stats.job) });
    } catch (err) {
      scope.postMessage({ statsId: stats.statsId, error: err instanceof Error ? err.message : String(err) });
    }
    return;
  }
  const { compression, decoderParameters, buffer, ...extra } = e.data as Job;
  void (async () => {
    try {
      const decoder = await getDecoder(compression, decoderParameters);
      const decoded = await decoder.decode(buffer);
      scope.postMessage({ decoded, ...extra }, [decoded]);
    } catch (err) {
      scope.postMessage({ error: err instanceof Error ? err.message : String(err), ...extra });
    }
  })();
});
