import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runClipPlan } from '../../src/panels/imagery/hostClip';
import type { ImageryLayerSpec, ReadBytesParams } from '../../src/panels/imagery/protocol';
import { closeBrowser, isType, openWebview, type Harness } from './harness';
import { moveMap } from './moveMap';
import type { ClipPlan } from '../../src/panels/imagery/clipMessages';
import { waitUntil } from '../support/waitUntil';

/**
 * "Save View to GeoTIFF…" both ways, from the map page: for a DEFLATE file the page answers a
 * plan and the extension host's half (hostClip.ts, run here in Node) writes the file; for an
 * LZW file, which the host does not inflate, the page clips and encodes it itself. Expected
 * values come from GDAL reading the source (test/fixtures/imagery/clip_truth.py), and the
 * host's file is checked against the page's own clip of the same window.
 */
interface Scene {
  file: string;
  corners: [[number, number], [number, number]];
}

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'imagery');
const dir = mkdtempSync(join(tmpdir(), 'eo-host-clip-page-'));
const URL0 = 'https://assets.example.com/scene.tif';
const BANDS = ['B02', 'B03', 'B04', 'B08'].map((name) => ({ name, scale: 0.0001, offset: 0 }));

const py = (script: string, ...args: string[]): Buffer => execFileSync('/usr/bin/python3', [join(FIXTURES, script), ...args], { maxBuffer: 256 * 1024 * 1024 });

function makeScene(name: string, compress: string): Scene {
  return JSON.parse(py('make_scene.py', join(dir, name), '--compress', compress, '--noise').toString('utf8')) as Scene;
}

let deflate: Scene;
let lzw: Scene;
before(() => {
  deflate = makeScene('deflate.tif', 'DEFLATE');
  lzw = makeScene('lzw.tif', 'LZW');
});
after(async () => {
  await closeBrowser();
  rmSync(dir, { recursive: true, force: true });
});

type ClipReply = { plan?: ClipPlan; bytes?: ArrayBuffer; width: number; height: number };
type Win = {
  eoMap: {
    map: { fitBounds(b: unknown, o?: unknown): void };
    imageryTools?: { clip(req: unknown): Promise<ClipReply> };
  };
};

async function show(scene: Scene, clip?: unknown): Promise<Harness> {
  const bytes = readFileSync(scene.file);
  const h = await openWebview('map', {
    viewport: { width: 900, height: 700 },
    onRequest: (req) => {
      const r = req as { method: string; params: ReadBytesParams };
      return { bytes: new Uint8Array(bytes.subarray(r.params.offset, r.params.offset + r.params.length)), total: bytes.length };
    },
  });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  const [[w, n], [e, s]] = scene.corners;
  // a view of part of the scene, so the window is not the whole file
  await moveMap(h.page, {
    fitBounds: [
      [s + 0.3 * (n - s), w + 0.2 * (e - w)],
      [n - 0.1 * (n - s), e - 0.25 * (e - w)],
    ],
    options: { animate: false },
  });
  const spec: ImageryLayerSpec = {
    id: 'scene',
    title: 'Synthetic scene',
    url: URL0,
    bands: BANDS,
    render: { kind: 'rgb', bands: ['B04', 'B03', 'B02'] },
    source: { kind: 'url', url: URL0 },
    ...(clip ? { clip } : {}),
  };
  await h.send({ type: 'imagery', spec, fit: false });
  await waitUntil(h.page, () => (document.querySelector('.eo-imagery-row[data-id="scene"]') as HTMLElement | null)?.dataset.state === 'ready', undefined, {
    timeout: 20000,
  });
  return h;
}

/** The page's answer to the extension's request; an answer with bytes comes back as base64. */
async function ask(h: Harness, req: Record<string, unknown>): Promise<{ plan?: ClipPlan; file?: Buffer; width: number; height: number }> {
  const r = await h.page.evaluate(async (q) => {
    const c = await (window as unknown as Win).eoMap.imageryTools!.clip(q);
    if (c.plan) return { plan: c.plan, width: 0, height: 0 };
    const u8 = new Uint8Array(c.bytes as ArrayBuffer);
    let s = '';
    for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
    return { b64: btoa(s), width: c.width, height: c.height };
  }, req);
  return 'plan' in r ? { plan: r.plan, width: 0, height: 0 } : { file: Buffer.from((r as { b64: string }).b64, 'base64'), width: r.width, height: r.height };
}

function gdalinfo(file: string) {
  return JSON.parse(execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8' })) as {
    size: [number, number];
    geoTransform: number[];
    coordinateSystem: { wkt: string };
    bands: { description: string; noDataValue?: number; scale?: number }[];
  };
}

/** The clip's window in the source's pixels, from its georeferencing. */
function windowIn(clip: string): [number, number, number, number] {
  const g = gdalinfo(clip);
  return [Math.round((g.geoTransform[0] - 500000) / 10), Math.round((4650000 - g.geoTransform[3]) / 10), g.size[0], g.size[1]];
}

describe('Save View to GeoTIFF, the host and the page', () => {
  it('a DEFLATE file: the page plans, the host writes what GDAL reads from the window, and what the page would have written', async () => {
    const h = await show(deflate);
    try {
      const req = { format: 'geotiff', id: 'scene', bands: ['B08', 'B02', 'B04'], level: 0, mask: false };
      const { plan } = await ask(h, { ...req, host: true });
      assert.ok(plan, 'the page answers a plan for a DEFLATE file');
      assert.equal(plan.compression, 8);
      assert.equal(plan.predictor, 2);
      const source = readFileSync(deflate.file);
      const r = await runClipPlan(plan, async (offset, length) => new Uint8Array(source.subarray(offset, offset + length)));
      const hostFile = join(dir, 'host.tif');
      writeFileSync(hostFile, r.bytes);
      const [x0, y0, w, hgt] = windowIn(hostFile);
      assert.ok(x0 > 0 && x0 + w < 1024 && w * hgt < 1024 * 1024, `a window not aligned to the file: ${[x0, y0, w, hgt]}`);
      assert.ok(
        py('clip_truth.py', 'read', hostFile).equals(py('clip_truth.py', 'window', deflate.file, '0', String(x0), String(y0), String(w), String(hgt), '3,0,2')),
      );
      // the page's own clip of the same request: the same file for GDAL
      const page = await ask(h, req);
      assert.ok(page.file);
      const pageFile = join(dir, 'page.tif');
      writeFileSync(pageFile, page.file);
      const [hi, pi] = [gdalinfo(hostFile), gdalinfo(pageFile)];
      assert.deepEqual([hi.size, hi.geoTransform, hi.bands], [pi.size, pi.geoTransform, pi.bands]);
      assert.match(hi.coordinateSystem.wkt, /ID\["EPSG",32633\]\]$/);
      assert.deepEqual(
        hi.bands.map((b) => b.description),
        ['B08', 'B02', 'B04'],
      );
      assert.ok(py('clip_truth.py', 'read', hostFile).equals(py('clip_truth.py', 'read', pageFile)));
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('an AOI-masked clip at two levels: the host writes what the page would have written', async () => {
    const [[w, n], [e, s]] = deflate.corners;
    const at = (a: number, b: number): [number, number] => [w + a * (e - w), n - b * (n - s)];
    const polygon = { type: 'Polygon', coordinates: [[at(0.1, 0.1), at(0.8, 0.2), at(0.45, 0.9), at(-0.1, 0.5), at(0.1, 0.1)]] };
    const h = await show(deflate, polygon);
    const source = readFileSync(deflate.file);
    try {
      for (const level of [0, 1]) {
        const req = { format: 'geotiff', id: 'scene', bands: ['B04', 'B08'], level, mask: true };
        const { plan } = await ask(h, { ...req, host: true });
        assert.ok(plan?.rings?.length, 'the plan carries the polygon');
        const r = await runClipPlan(plan, async (offset, length) => new Uint8Array(source.subarray(offset, offset + length)));
        const hostFile = join(dir, `host-masked-${level}.tif`);
        writeFileSync(hostFile, r.bytes);
        const pageFile = join(dir, `page-masked-${level}.tif`);
        writeFileSync(pageFile, (await ask(h, req)).file as Buffer);
        const [hi, pi] = [gdalinfo(hostFile), gdalinfo(pageFile)];
        assert.deepEqual([hi.size, hi.geoTransform, hi.bands], [pi.size, pi.geoTransform, pi.bands], `level ${level}`);
        assert.deepEqual(
          hi.bands.map((b) => b.noDataValue),
          [0, 0],
        );
        assert.ok(py('clip_truth.py', 'read', hostFile).equals(py('clip_truth.py', 'read', pageFile)), `level ${level}: the same pixels`);
        const truth = JSON.parse(py('check_masked_clip.py', deflate.file, hostFile, JSON.stringify(polygon), String(level)).toString('utf8')) as {
          wrongCount: number;
          counts: { inside: number; outsideWithData: number };
        };
        assert.ok(truth.counts.inside > 1000 && truth.counts.outsideWithData > 1000, JSON.stringify(truth.counts));
        assert.equal(truth.wrongCount, 0, `level ${level}: GDAL's check of the mask`);
      }
    } finally {
      await h.close();
    }
  });

  it('an LZW file, which the host does not inflate: the page clips and encodes it itself', async () => {
    const h = await show(lzw);
    try {
      const r = await ask(h, { format: 'geotiff', id: 'scene', bands: ['B02', 'B03', 'B04', 'B08'], level: 0, mask: false, host: true });
      assert.equal(r.plan, undefined, 'no plan for LZW');
      assert.ok(r.file);
      const file = join(dir, 'lzw-clip.tif');
      writeFileSync(file, r.file);
      const [x0, y0, w, hgt] = windowIn(file);
      assert.deepEqual([w, hgt], [r.width, r.height]);
      assert.ok(
        py('clip_truth.py', 'read', file).equals(py('clip_truth.py', 'window', lzw.file, '0', String(x0), String(y0), String(w), String(hgt), '0,1,2,3')),
      );
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});
