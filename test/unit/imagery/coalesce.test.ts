/**
 * Tile reads merged into range requests (src/raster/coalesce.ts): adjacent and nearly
 * adjacent ranges become one request, and every limit of issue 24 holds for any input: each
 * range is served whole by exactly one request, a gap past `maxGap` splits, a request carries at
 * most `maxWaste` of what it serves in unasked bytes, and none grows past `maxRun`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { coalesce, COALESCE_LIMITS, type ByteRange, type CoalesceLimits, type Run } from '../../../src/raster/coalesce';
import { MAX_READ_BYTES } from '../../../src/panels/imagery/protocol';

const KB = 1024;
const MB = 1024 * KB;

/** The limits every run must keep, checked on the runs themselves. */
function assertWithin(ranges: ByteRange[], runs: Run[], limits: CoalesceLimits): void {
  for (const r of ranges.filter((x) => x.length > 0)) {
    const holders = runs.filter((run) => run.parts.some((p) => p.offset === r.offset && p.length === r.length));
    assert.equal(holders.length, 1, `range ${r.offset}+${r.length} is served by one request`);
    const run = holders[0];
    assert.ok(run.offset <= r.offset && r.offset + r.length <= run.offset + run.length, 'and lies inside it, whole');
  }
  for (const run of runs) {
    let served = 0;
    // bytes of the run some part asks for (parts may overlap)
    const parts = [...run.parts].sort((a, b) => a.offset - b.offset);
    let end = run.offset;
    for (const p of parts) {
      served += Math.max(0, p.offset + p.length - Math.max(end, p.offset));
      if (p.offset > end) assert.ok(p.offset - end <= limits.maxGap, `gap ${p.offset - end} within ${limits.maxGap}`);
      end = Math.max(end, p.offset + p.length);
    }
    assert.equal(end, run.offset + run.length, 'a request ends where its last part does');
    assert.equal(parts[0].offset, run.offset, 'and starts where its first does');
    if (run.parts.length > 1) assert.ok(run.length <= limits.maxRun, `request of ${run.length} within ${limits.maxRun}`);
    assert.ok(run.length - served <= served * limits.maxWaste, `request of ${run.length} serves ${served}: waste within ${limits.maxWaste}`);
  }
}

describe('coalesce: tile ranges into range requests', () => {
  it('merges a row of tiles stored back to back (GDAL leaves 8 bytes between them) into one request', () => {
    // a COG's tile row: each tile a 4-byte leader before and a 4-byte trailer after
    const tiles = Array.from({ length: 6 }, (_, i) => ({ offset: 1000 + i * (1_500_000 + 8), length: 1_500_000 }));
    const runs = coalesce(tiles);
    assert.equal(runs.length, 1);
    assert.deepEqual(runs[0].parts, tiles);
    assert.equal(runs[0].offset, 1000);
    assert.equal(runs[0].length, 5 * (1_500_000 + 8) + 1_500_000);
    assertWithin(tiles, runs, COALESCE_LIMITS);
  });

  it('does not span a gap wider than maxGap: the tiles of the next row, past the ones outside the window', () => {
    const limits = COALESCE_LIMITS;
    const a = { offset: 0, length: 100 * KB };
    const b = { offset: a.length + limits.maxGap, length: 100 * KB };
    const c = { offset: b.offset + b.length + limits.maxGap + 1, length: 100 * KB };
    const runs = coalesce([c, a, b]);
    assert.deepEqual(
      runs.map((r) => r.parts),
      [[a, b], [c]],
    );
    assertWithin([a, b, c], runs, limits);
  });

  it('never carries more unasked bytes than maxWaste of what it serves: small tiles with gaps stay apart', () => {
    // 1 KB tiles 4 KB apart: within maxGap, but a merged read would be mostly gap
    const tiles = Array.from({ length: 10 }, (_, i) => ({ offset: i * 5 * KB, length: KB }));
    const runs = coalesce(tiles);
    assert.equal(runs.length, tiles.length);
    assertWithin(tiles, runs, COALESCE_LIMITS);
  });

  it('stops a request at maxRun, and a single range larger than that goes alone', () => {
    const limits: CoalesceLimits = { ...COALESCE_LIMITS, maxRun: 10 * MB };
    const tiles = Array.from({ length: 8 }, (_, i) => ({ offset: i * 3 * MB, length: 3 * MB }));
    const runs = coalesce(tiles, limits);
    assert.deepEqual(
      runs.map((r) => r.parts.length),
      [3, 3, 2],
    );
    const huge = { offset: 100 * MB, length: 12 * MB };
    const alone = coalesce([...tiles, huge], limits);
    assert.deepEqual(alone[alone.length - 1].parts, [huge]);
    assertWithin([...tiles, huge], alone, limits);
  });

  it('keeps every request within what the extension reads at once (MAX_READ_BYTES)', () => {
    assert.ok(COALESCE_LIMITS.maxRun <= MAX_READ_BYTES);
    const tiles = Array.from({ length: 40 }, (_, i) => ({ offset: i * MB, length: MB }));
    const runs = coalesce(tiles);
    assert.ok(runs.length > 1);
    for (const r of runs) assert.ok(r.length <= MAX_READ_BYTES);
    assertWithin(tiles, runs, COALESCE_LIMITS);
  });

  it('serves a range asked twice once, overlapping ranges from one request, and leaves empty ranges out', () => {
    const a = { offset: 0, length: 64 * KB };
    const b = { offset: 32 * KB, length: 64 * KB };
    const runs = coalesce([a, b, { ...a }, { offset: 500, length: 0 }]);
    assert.equal(runs.length, 1);
    assert.deepEqual(runs[0].parts, [a, b]);
    assert.equal(runs[0].length, 96 * KB);
    assert.deepEqual(coalesce([]), []);
  });

  it('keeps every limit on random layouts', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let trial = 0; trial < 200; trial++) {
      const limits: CoalesceLimits = { maxGap: 1 + rnd(64 * KB), maxRun: 1 + rnd(8 * MB), maxWaste: [0, 1 / 8, 1 / 2][rnd(3)] };
      const ranges: ByteRange[] = [];
      let at = rnd(1000);
      for (let i = 0, n = 1 + rnd(40); i < n; i++) {
        const length = rnd(2 * MB);
        ranges.push({ offset: at, length });
        at += length + (rnd(3) === 0 ? rnd(128 * KB) : rnd(16)) - (rnd(10) === 0 ? Math.min(at, rnd(KB)) : 0);
      }
      assertWithin(ranges, coalesce(ranges, limits), limits);
    }
  });
});
