import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FORMATS, BufferSource, Input } from 'mediabunny';
import type { ImageryLayerSpec, ReadBytesParams, TimeFrame } from '../../src/panels/imagery/protocol';
import type { TimelapseRequest } from '../../src/panels/imagery/timelapseMessages';
import { closeBrowser, isType, openWebview, type Harness } from './harness';
import { decode, runTimelapse } from './timelapseRun';

/**
 * "Export Timelapse…" in the map webview, on a scene GDAL wrote (test/fixtures/imagery/
 * make_scene.py: four quadrants of known reflectance). The GIF is decoded here with omggif (an
 * independent decoder): one frame per date that could be read, the chosen size and delay, each
 * quadrant's colour what its reflectance gives through the date's stretch, pixels outside the
 * AOI clip left as background, the AOI outline drawn, and only the label differing between two
 * dates of the same picture. A date whose file is missing is left out and named.
 */
interface Scene {
  file: string;
  points: Record<'vegetation' | 'water' | 'bare' | 'roofs' | 'nodata', [number, number]>;
  corners: [[number, number], [number, number]];
  values: Record<'vegetation' | 'water' | 'bare' | 'roofs', [number, number, number, number]>;
}

const dir = mkdtempSync(join(tmpdir(), 'eo-timelapse-'));
const SCENE_URL = 'https://assets.example.com/scene.tif';
const MISSING_URL = 'https://assets.example.com/missing.tif';
const SCALE = 0.0001;
const BANDS = [
  { name: 'B02', scale: SCALE, offset: 0 },
  { name: 'B03', scale: SCALE, offset: 0 },
  { name: 'B04', scale: SCALE, offset: 0 },
  { name: 'B08', scale: SCALE, offset: 0 },
];

let scene: Scene;
let h: Harness;
before(async () => {
  const out = execFileSync('/usr/bin/python3', [join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py'), join(dir, 'scene.tif')], {
    encoding: 'utf8',
  });
  scene = JSON.parse(out) as Scene;
  const bytes = readFileSync(scene.file);
  h = await openWebview('map', {
    viewport: { width: 1000, height: 760 },
    onRequest: (req) => {
      const r = req as { method: string; params: ReadBytesParams };
      if (r.params.url === MISSING_URL) throw Object.assign(new Error('Not found (HTTP 404).'), { status: 404 });
      return { bytes: new Uint8Array(bytes.subarray(r.params.offset, r.params.offset + r.params.length)), total: bytes.length };
    },
  });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
});
after(async () => {
  await h?.close();
  await closeBrowser();
  rmSync(dir, { recursive: true, force: true });
});

/** The AOI: the middle half of the scene in each direction, so all four quadrants show inside it. */
function aoi(): { type: 'Polygon'; coordinates: number[][][] } {
  const [[w, n], [e, s]] = scene.corners;
  const dx = (e - w) / 4;
  const dy = (n - s) / 4;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [w + dx, s + dy],
        [e - dx, s + dy],
        [e - dx, n - dy],
        [w + dx, n - dy],
        [w + dx, s + dy],
      ],
    ],
  };
}

function frame(date: string, hi: number, url = SCENE_URL): TimeFrame {
  const spec: ImageryLayerSpec = {
    id: `scene-${date}`,
    title: `Scene ${date}`,
    url,
    bands: BANDS,
    render: {
      kind: 'rgb',
      bands: ['B04', 'B03', 'B02'],
      stretch: [
        [0, hi],
        [0, hi],
        [0, hi],
      ],
    },
    clip: aoi(),
    source: { kind: 'url', url },
    date,
  };
  return { spec, date };
}

/** A point's pixel in the frame: Web Mercator, the box fitted with a 6 % margin and centred. */
function framePixel(lon: number, lat: number, bbox: [number, number, number, number], width: number, height: number): [number, number] {
  const merc = (lo: number, la: number): [number, number] => {
    const s = Math.sin((la * Math.PI) / 180);
    return [(lo + 180) / 360, 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)];
  };
  const [x0, y1] = merc(bbox[0], bbox[1]);
  const [x1, y0] = merc(bbox[2], bbox[3]);
  const k = Math.min((width * 0.88) / (x1 - x0), (height * 0.88) / (y1 - y0));
  const [x, y] = merc(lon, lat);
  return [Math.floor((x - (x0 + x1) / 2) * k + width / 2), Math.floor((y - (y0 + y1) / 2) * k + height / 2)];
}

const rgbAt = (px: Uint8Array, width: number, [x, y]: [number, number]): number[] => Array.from(px.subarray((y * width + x) * 4, (y * width + x) * 4 + 3));

describe('Export Timelapse (map webview)', () => {
  it('one GIF frame per readable date, at the chosen size and rate, drawn as the time slider draws it', async () => {
    const [[w, n], [e, s]] = scene.corners;
    const bbox: [number, number, number, number] = [w, s, e, n];
    const width = 320;
    const height = 240;
    const request: TimelapseRequest = {
      title: 'Synthetic scene',
      frames: [frame('2024-05-01', 0.3), frame('2024-06-01', 0.3), frame('2024-07-01', 0.3, MISSING_URL), frame('2024-08-01', 0.6)],
      bbox,
      outline: aoi(),
      width,
      height,
      fps: 4,
      format: 'gif',
    };
    const { reply, progress } = await runTimelapse(h, request);
    assert.equal(reply.ok, true, reply.error);
    const r = reply.result!;
    assert.equal(progress, 4, 'progress for every date, n of N');
    assert.deepEqual(r.dates, ['2024-05-01', '2024-06-01', '2024-08-01']);
    assert.equal(r.skipped.length, 1);
    assert.equal(r.skipped[0].date, '2024-07-01');
    assert.match(r.skipped[0].error, /404|not found/i);

    const { gif, frames } = decode(r.b64!);
    assert.equal(gif.numFrames(), r.dates.length, 'one frame per date drawn');
    assert.equal(gif.width, width);
    assert.equal(gif.height, height);
    for (let i = 0; i < gif.numFrames(); i++) assert.equal(gif.frameInfo(i).delay, 25, '4 frames per second: 25 hundredths of a second each');
    assert.equal(gif.loopCount(), 0, 'loops forever');

    // each quadrant's colour from its reflectances through the date's stretch (RGB = B04, B03, B02)
    for (const [i, hi] of [
      [0, 0.3],
      [2, 0.6],
    ] as const) {
      for (const q of ['vegetation', 'water', 'bare', 'roofs'] as const) {
        const [b02, b03, b04] = scene.values[q];
        const expected = [b04, b03, b02].map((dn) => Math.min(255, Math.max(0, ((dn * SCALE) / hi) * 255)));
        // a quadrant's centre lies outside the AOI (the middle half): sample halfway to the scene's centre
        const [lon, lat] = scene.points[q];
        const mid: [number, number] = [(lon + (w + e) / 2) / 2, (lat + (n + s) / 2) / 2];
        const got = rgbAt(frames[i], width, framePixel(mid[0], mid[1], bbox, width, height));
        const worst = Math.max(...got.map((v, k) => Math.abs(v - expected[k])));
        assert.ok(worst <= 8, `${r.dates[i]} ${q}: ${got} vs ${expected.map((v) => v.toFixed(1))}`);
      }
    }
    // outside the AOI clip: the dark background; on the AOI's edge: the yellow outline
    const outside = rgbAt(frames[0], width, framePixel(w + (e - w) / 10, n - (n - s) / 10, bbox, width, height));
    assert.ok(
      outside.every((v) => Math.abs(v - 30) <= 6),
      `outside the AOI: ${outside}`,
    );
    const ring = aoi().coordinates[0];
    const [ex, ey] = framePixel(ring[2][0], (ring[1][1] + ring[2][1]) / 2, bbox, width, height);
    const near = [-2, -1, 0, 1, 2].map((d) => rgbAt(frames[0], width, [ex + d, ey]));
    assert.ok(
      near.some(([R, G, B]) => R > 200 && G > 170 && B < 80),
      `the outline's east edge: ${JSON.stringify(near)}`,
    );
    // the same picture on two dates: only the label (bottom left) differs
    const changed: [number, number][] = [];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) if (rgbAt(frames[0], width, [x, y]).some((v, k) => v !== rgbAt(frames[1], width, [x, y])[k])) changed.push([x, y]);
    assert.ok(changed.length > 20, `the dates' labels differ (${changed.length} pixels)`);
    assert.ok(
      changed.every(([x, y]) => x < width / 2 && y > height * 0.7),
      `only the label's corner changes: ${JSON.stringify(changed.find(([x, y]) => !(x < width / 2 && y > height * 0.7)))}`,
    );
    assert.deepEqual(h.pageErrors, []);
  });

  it('WebM: an EBML file of VP9 or VP8 frames, one per date, at the chosen rate', async (t) => {
    const canEncode = await h.page.evaluate(() => typeof VideoEncoder !== 'undefined');
    if (!canEncode) return t.skip('this Chromium has no WebCodecs VideoEncoder');
    const [[w, n], [e, s]] = scene.corners;
    const { reply } = await runTimelapse(h, {
      title: 'Synthetic scene',
      frames: [frame('2024-05-01', 0.3), frame('2024-06-01', 0.4), frame('2024-08-01', 0.6)],
      bbox: [w, s, e, n],
      width: 320,
      height: 240,
      fps: 2,
      format: 'webm',
    });
    assert.equal(reply.ok, true, reply.error);
    const bytes = Buffer.from(reply.result!.b64!, 'base64');
    assert.deepEqual([...bytes.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'EBML header');
    assert.match(reply.result!.codec ?? '', /^vp[89]$/);
    const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
    assert.equal(await input.getMimeType().then((m) => m.split(';')[0]), 'video/webm');
    const track = await input.getPrimaryVideoTrack();
    assert.ok(track);
    assert.equal(track.displayWidth, 320);
    assert.equal(track.displayHeight, 240);
    const stats = await track.computePacketStats();
    assert.equal(stats.packetCount, 3, 'one frame per date');
    assert.ok(Math.abs((await input.computeDuration()) - 1.5) < 0.01, 'three frames at 2 per second: 1.5 s');
  });

  it('cancel midway: the reply says cancelled and no file is made', async () => {
    const dates = Array.from({ length: 8 }, (_, i) => frame(`2024-0${1 + (i % 9)}-15`, 0.3 + i / 100));
    const [[w, n], [e, s]] = scene.corners;
    const { reply, progress } = await runTimelapse(
      h,
      { title: 'Synthetic scene', frames: dates, bbox: [w, s, e, n], width: 320, height: 240, fps: 2, format: 'gif' },
      2,
    );
    assert.equal(reply.ok, false);
    assert.equal(reply.cancelled, true);
    assert.ok(progress < 8, `stopped after ${progress} of 8 dates`);
  });
});
