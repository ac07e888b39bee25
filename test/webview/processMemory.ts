/**
 * Resident memory of the processes this test started (headless Chromium: browser, renderers,
 * their workers' threads), read from /proc, and a sampler that keeps the peak while a page
 * loads.
 */
import { readdirSync, readFileSync } from 'node:fs';

const PAGE = 4096;

/** Bytes resident in every process descended from `root` (not `root` itself). */
export function descendantsRss(root = process.pid): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // the command name may hold spaces: fields after its closing parenthesis
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(rest[1]));
      rss.set(Number(name), Number(readFileSync(`/proc/${name}/statm`, 'utf8').split(' ')[1]) * PAGE);
    } catch {
      // the process ended while we looked
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, bytes] of rss) if (isDescendant(pid)) total += bytes;
  return total;
}

/** Samples `read` every `everyMs` until stopped; `stop()` gives the baseline and the peak. */
export function peakSampler(read: () => number, everyMs = 100): { stop(): { base: number; peak: number } } {
  const base = read();
  let peak = base;
  const t = setInterval(() => (peak = Math.max(peak, read())), everyMs);
  return {
    stop() {
      clearInterval(t);
      peak = Math.max(peak, read());
      return { base, peak };
    },
  };
}

export const mb = (n: number): string => `${Math.round(n / (1024 * 1024))} MB`;
