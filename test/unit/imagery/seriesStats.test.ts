import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, percentiles, seriesStatistics, windowHasInside, type StatsJob } from '../../../src/panels/imagery/seriesStats';
import { seriesCsv, SERIES_CSV_HEADER } from '../../../src/commands/imagery/seriesCsv';
import { csvText } from '../../../src/csvCells';
import type { SeriesRequest } from '../../../src/panels/imagery/seriesMessages';

/** A 4 × 4 tile whose pixel (c, r) holds red = 1000 + c, nir = 3000 + 100 r (DN), SCL given. */
function job(over: Partial<StatsJob> = {}, scl?: number[]): StatsJob {
  const red = Array.from({ length: 16 }, (_, p) => 1000 + (p % 4));
  const nir = Array.from({ length: 16 }, (_, p) => 3000 + 100 * Math.floor(p / 4));
  return {
    tiles: [{ x0: 0, y0: 0, width: 4, height: 4, bands: scl ? [red, nir, scl] : [red, nir] }],
    // a square over the centres of columns 1..2 and rows 1..2 (edges between pixel centres)
    rings: [
      [
        [1, 1],
        [3, 1],
        [3, 3],
        [1, 3],
        [1, 1],
      ],
    ],
    expression: '(B08-B04)/(B08+B04)',
    bands: scl ? ['B04', 'B08', 'SCL'] : ['B04', 'B08'],
    scale: scl ? [0.0001, 0.0001, 1] : [0.0001, 0.0001],
    offset: scl ? [-0.1, -0.1, 0] : [-0.1, -0.1],
    nodata: 0,
    scl: scl ? 2 : undefined,
    ...over,
  };
}

function ndvi(c: number, r: number): number {
  const red = (1000 + c) * 0.0001 - 0.1;
  const nir = (3000 + 100 * r) * 0.0001 - 0.1;
  return (nir - red) / (nir + red);
}

describe('index statistics inside a polygon', () => {
  it('takes the pixel centres inside, physical values, and numpy-style percentiles', () => {
    const r = seriesStatistics(job());
    assert.equal(r.pixels, 4);
    assert.equal(r.valid, 4);
    const v = [ndvi(1, 1), ndvi(2, 1), ndvi(1, 2), ndvi(2, 2)].sort((a, b) => a - b);
    assert.ok(Math.abs((r.mean as number) - v.reduce((s, x) => s + x, 0) / 4) < 1e-12);
    assert.ok(Math.abs((r.median as number) - (v[1] + v[2]) / 2) < 1e-12);
    // numpy: index (n - 1) × 0.1 = 0.3 between the first two
    assert.ok(Math.abs((r.p10 as number) - (v[0] + 0.3 * (v[1] - v[0]))) < 1e-12);
    assert.ok(Math.abs((r.p90 as number) - (v[2] + 0.7 * (v[3] - v[2]))) < 1e-12);
  });

  it('leaves out no-data, SCL no-data and clouds, and counts the clouded pixels', () => {
    const scl = Array.from({ length: 16 }, () => 4);
    scl[1 * 4 + 1] = 9; // cloud high probability
    scl[1 * 4 + 2] = 0; // no data
    const r = seriesStatistics(job({}, scl));
    assert.deepEqual([r.pixels, r.valid, r.cloudy], [4, 2, 1]);
    const nd = job();
    (nd.tiles[0].bands[0] as number[])[2 * 4 + 1] = 0;
    assert.deepEqual([seriesStatistics(nd).pixels, seriesStatistics(nd).valid], [4, 3]);
  });

  it('a polygon that covers no pixel centre: no values, and no tile needed', () => {
    const r = seriesStatistics(
      job({
        rings: [
          [
            [0.6, 0.6],
            [0.9, 0.6],
            [0.9, 0.9],
            [0.6, 0.6],
          ],
        ],
      }),
    );
    assert.deepEqual(r, { pixels: 0, valid: 0, cloudy: 0 });
    assert.equal(
      windowHasInside(
        [
          [
            [0.6, 0.6],
            [0.9, 0.6],
            [0.9, 0.9],
            [0.6, 0.6],
          ],
        ],
        0,
        0,
        4,
        4,
      ),
      false,
    );
    assert.equal(windowHasInside(job().rings, 0, 0, 2, 2), true);
    assert.equal(windowHasInside(job().rings, 3, 0, 4, 4), false);
  });

  it('an unknown band is named', () => {
    assert.throws(() => seriesStatistics(job({ expression: 'B99-B04' })), /B99/);
  });

  it('selected percentiles equal those of the sorted values: random, sorted, reversed, repeated, one and two values', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const cases: number[][] = [
      Array.from({ length: 5001 }, rnd),
      Array.from({ length: 4000 }, (_, i) => i / 4000),
      Array.from({ length: 4000 }, (_, i) => -i),
      Array.from({ length: 3000 }, () => Math.round(rnd() * 3) / 3),
      Array.from({ length: 2000 }, () => 0.25),
      [0.4],
      [0.9, -0.1],
    ];
    const qs = [0.1, 0.5, 0.9];
    for (const c of cases) {
      const sorted = Float64Array.from(c).sort();
      assert.deepEqual(
        percentiles(Float64Array.from(c), qs),
        qs.map((q) => percentile(sorted, q)),
        `${c.length} values from ${c[0]}`,
      );
    }
  });

  it('percentile of one value is that value', () => {
    assert.equal(percentile(Float64Array.of(0.5), 0.1), 0.5);
  });
});

describe('series CSV', () => {
  const req: SeriesRequest = {
    title: 'Fields',
    index: { name: '=NDVI', expression: '(B08-B04)/(B08+B04)' },
    polygon: {},
    dates: [
      { date: '2025-06-01', spec: {} as never, source: 'asset-b' },
      { date: '2025-05-01', spec: {} as never, source: '-asset,a' },
    ],
  };
  it('one row per date, oldest first, statistics in the header, text cells neutralised', () => {
    const csv = seriesCsv([
      {
        request: req,
        points: [
          {
            date: '2025-06-01',
            source: 'asset-b',
            pixels: 100,
            valid: 40,
            validShare: 0.4,
            median: -0.25,
            mean: -0.2,
            p10: -0.5,
            p90: 0.1,
            level: 1,
            pixelSize: 20,
          },
          { date: '2025-05-01', source: '-asset,a', pixels: 0, valid: 0, validShare: 0, error: 'HTTP 404' },
        ],
      },
    ]);
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(lines[0], SERIES_CSV_HEADER.join(','));
    assert.equal(lines[1], `2025-05-01,Fields,'=NDVI,,,,,0,0,0,,,,,"'-asset,a",HTTP 404`);
    assert.equal(lines[2], `2025-06-01,Fields,'=NDVI,-0.2,-0.25,-0.5,0.1,0.4,40,100,,,1,20,asset-b,too few valid pixels`);
    assert.equal(csvText('a"b'), '"a""b"');
    assert.equal(csvText('a,"b'), '"a,""b"');
    assert.equal(csvText('@x'), "'@x");
  });

  it('overlaid series: rows by date, then in the order the series were added, each named', () => {
    const pixel: SeriesRequest = { ...req, title: 'Pixel at 36.70000, -120.50000', index: { name: 'NDVI', expression: '(B08-B04)/(B08+B04)' } };
    const csv = seriesCsv([
      { request: req, points: [undefined, undefined] },
      {
        request: pixel,
        points: [
          { date: '2025-06-01', source: 'asset-b', pixels: 1, valid: 0, validShare: 0, cloudyPixels: 1, value: 0.61, level: 0 },
          { date: '2025-05-01', source: '-asset,a', pixels: 1, valid: 1, validShare: 1, value: 0.3, mean: 0.3, median: 0.3, p10: 0.3, p90: 0.3, level: 0 },
        ],
      },
    ]);
    const rows = csv
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','));
    assert.deepEqual(
      rows.map((r) => [r[0], r[1]]),
      [
        ['2025-05-01', 'Fields'],
        ['2025-05-01', 'Pixel at 36.70000'],
        ['2025-06-01', 'Fields'],
        ['2025-06-01', 'Pixel at 36.70000'],
      ].map(([d, n]) => [d, n.startsWith('Pixel') ? '"Pixel at 36.70000' : n]),
    );
    const cloudy = csv.trimEnd().split('\r\n')[4];
    assert.match(cloudy, /,0\.61,0,,asset-b,not valid: cloud$/);
  });
});
