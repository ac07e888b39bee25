/**
 * The page's side of asking the extension host for a date's statistics (`seriesStats`,
 * answered by `seriesStatsReply`; src/panels/imagery/hostStats.ts takes them): each question
 * waits for its own answer, and a cancelled series stops waiting at once.
 */
import { aborted } from './series';
import type { FromMapSeriesMessage, HostStats, StatsPlan, ToMapSeriesMessage } from '../../../src/panels/imagery/seriesMessages';

type Reply = Extract<ToMapSeriesMessage, { type: 'seriesStatsReply' }>;

export class HostStatsRequests {
  private next = 1;
  private readonly waiting = new Map<number, { resolve(r: HostStats): void; reject(e: Error): void }>();

  constructor(private readonly post: (m: FromMapSeriesMessage) => void) {}

  ask(requestId: number, plan: StatsPlan, signal: AbortSignal): Promise<HostStats> {
    const statsId = this.next++;
    return new Promise<HostStats>((resolve, reject) => {
      const stop = () => {
        this.waiting.delete(statsId);
        reject(aborted());
      };
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      this.waiting.set(statsId, {
        resolve: (r) => (signal.removeEventListener('abort', stop), resolve(r)),
        reject: (e) => (signal.removeEventListener('abort', stop), reject(e)),
      });
      this.post({ type: 'seriesStats', requestId, statsId, plan });
    });
  }

  answer(m: Reply): void {
    const w = this.waiting.get(m.statsId);
    if (!w) return;
    this.waiting.delete(m.statsId);
    if (m.ok) w.resolve(m.result);
    else w.reject(new Error(m.error));
  }
}
