/**
 * Tile reads merged into fewer, larger range requests, as GDAL merges the ranges of a window
 * it reads over /vsicurl/: a COG stores a row of tiles back to back (GDAL's leader and trailer
 * leave a few bytes between them), so a strip of a saved view is a handful of requests, not
 * one per tile, and each pays its round trip through the extension host once.
 *
 * Bounded on every side (issue 24): two reads merge only across a small gap, a merged read
 * never carries more than an eighth of what it serves in bytes nobody asked for, and never
 * grows past `maxRun` (a single tile larger than that, already checked against its image's
 * tile size, goes alone). Pure: no I/O.
 */
import { MAX_READ_BYTES } from './limits';

export interface ByteRange {
  offset: number;
  length: number;
}

/** One request: the bytes it reads and the asked-for ranges it serves, in file order. */
export interface Run extends ByteRange {
  parts: ByteRange[];
}

export interface CoalesceLimits {
  /** The largest gap between two ranges that one request still spans. */
  maxGap: number;
  /** The largest request made of several ranges. */
  maxRun: number;
  /** Bytes in gaps a request may carry, as a fraction of the bytes it serves. */
  maxWaste: number;
}

export const COALESCE_LIMITS: CoalesceLimits = {
  // the byte source's small-read block: GDAL's leader/trailer gaps are 8 bytes
  maxGap: 16 * 1024,
  // the most the extension reads at once; the host's byte budget holds a few of them in flight
  maxRun: MAX_READ_BYTES,
  maxWaste: 1 / 8,
};

/**
 * The requests that read `ranges` (any order, duplicates allowed; empty ranges are left out):
 * each range lies inside exactly one run, whole.
 */
export function coalesce(ranges: readonly ByteRange[], limits: CoalesceLimits = COALESCE_LIMITS): Run[] {
  const sorted = ranges.filter((r) => r.length > 0).sort((a, b) => a.offset - b.offset || a.length - b.length);
  const runs: Run[] = [];
  let run: (Run & { served: number; waste: number }) | undefined;
  for (const r of sorted) {
    if (run) {
      const end = run.offset + run.length;
      const gap = Math.max(0, r.offset - end);
      const grown = Math.max(end, r.offset + r.length) - run.offset;
      // bytes both ranges cover are served once: only what lies past the run's end is new
      const served = run.served + Math.max(0, r.offset + r.length - Math.max(end, r.offset));
      const fits = gap <= limits.maxGap && grown <= limits.maxRun && run.waste + gap <= served * limits.maxWaste;
      if (fits) {
        const last = run.parts[run.parts.length - 1];
        // sorted: a range asked twice follows itself, and is served by one part
        if (last.offset !== r.offset || last.length !== r.length) run.parts.push({ offset: r.offset, length: r.length });
        run.length = grown;
        run.served = served;
        run.waste += gap;
        continue;
      }
      runs.push({ offset: run.offset, length: run.length, parts: run.parts });
    }
    run = { offset: r.offset, length: r.length, parts: [{ offset: r.offset, length: r.length }], served: r.length, waste: 0 };
  }
  if (run) runs.push({ offset: run.offset, length: run.length, parts: run.parts });
  return runs;
}
