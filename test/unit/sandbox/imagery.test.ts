/**
 * The sandbox's imagery, checked by an independent reader: GDAL (`gdalinfo`, `gdallocationinfo`
 * and its COG validator, from Debian's gdal-bin and python3-gdal) reads the COGs the sandbox
 * serves, over HTTP ranges through /vsicurl/ with the bearer token, and the georeferencing and
 * pixel values it finds are compared with what the scene model meant to write. Without GDAL
 * these tests fail: they are the only check that the TIFF bytes are right.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { type Samples, type TileRequest, writeCog } from '../../../src/sandbox/imagery/cogWriter';
import { reflectance } from '../../../src/sandbox/imagery/landscape';
import { MAX_RANGES, parseRange } from '../../../src/sandbox/imagery/ranges';
import { type Scene, lonLatOf, pixelOf, pixelTruth } from '../../../src/sandbox/imagery/scene';
import { FULL_SIZE, isFullSizeItem, itemScene, itemTruthAt } from '../../../src/sandbox/imagery/scenes';
import { type ArchiveRow, COLLECTION_DEFS, generateArchive } from '../../../src/sandbox/world/archive';
import { caller } from './helpers';

const run = promisify(execFile);
const PY = '/usr/bin/python3';

async function gdal(cmd: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<string> {
  if (input === undefined) {
    const { stdout } = await run(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${err}`))));
    child.stdin.end(input);
  });
}

const rows = generateArchive(42, 1);
const byCollection = (cid: string): ArchiveRow[] => rows.filter((r) => COLLECTION_DEFS[r.c].id === cid);
const bigRow = rows.find(isFullSizeItem);
const enmapRow = byCollection('enmap-l2a').find((r) => r.cloud < 10);
const s2Row = byCollection('sentinel-2-l2a').find((r) => !isFullSizeItem(r) && r.cloud < 20);

/** Full-resolution pixels of a scene whose class is `cover`, found by walking a coarse grid. */
function pixelsOf(s: Scene, cover: string, n: number): [number, number][] {
  const found: [number, number][] = [];
  for (let k = 1; k < 40000 && found.length < n; k++) {
    const col = (k * 7919) % s.width;
    const row = (k * 104729 + 13) % s.height;
    if (pixelTruth(s, col, row).cover === cover) found.push([col, row]);
  }
  return found;
}

let sb: SandboxHandle;
let tmp: string;
let env: Record<string, string>;

before(async () => {
  try {
    await run('gdalinfo', ['--version']);
    await run(PY, ['-c', 'import osgeo_utils.samples.validate_cloud_optimized_geotiff']);
  } catch (e) {
    throw new Error(`GDAL is required for the imagery tests (Debian: gdal-bin python3-gdal): ${(e as Error).message}`);
  }
  sb = await startSandbox({ port: 0 });
  tmp = mkdtempSync(path.join(tmpdir(), 'eo-cog-'));
  env = {
    GDAL_HTTP_HEADERS: `Authorization: Bearer ${sb.tokens.alice}`,
    GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR',
    GDAL_HTTP_TIMEOUT: '60',
  };
});
after(async () => {
  await sb?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function validate(url: string, full: boolean): Promise<void> {
  const args = ['-m', 'osgeo_utils.samples.validate_cloud_optimized_geotiff', ...(full ? ['--full-check=yes'] : []), `/vsicurl/${url}`];
  let out: string;
  try {
    out = await gdal(PY, args, env);
  } catch (e) {
    const x = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`COG validator rejected ${url}: ${x.stdout ?? ''}${x.stderr ?? ''}${x.message}`);
  }
  assert.match(out, /is a valid cloud optimized GeoTIFF/);
}

interface GdalInfo {
  size: [number, number];
  geoTransform: number[];
  coordinateSystem: { wkt: string };
  bands: {
    band: number;
    type: string;
    description?: string;
    noDataValue?: number;
    scale?: number;
    offset?: number;
    overviews?: { size: [number, number] }[];
    block: [number, number];
  }[];
  metadata?: Record<string, Record<string, string>>;
}

async function info(url: string): Promise<GdalInfo> {
  return JSON.parse(await gdal('gdalinfo', ['-json', url], env)) as GdalInfo;
}

describe('COG writer, read by GDAL', () => {
  const value = (t: TileRequest, c: number, r: number, b: number): number => (((t.col0 + c) * 7 + (t.row0 + r) * 3 + b * 1000 + t.level * 10_000) % 60_000) + 1;
  const spec = (bigTiff: boolean) => ({
    width: 700,
    height: 500,
    bands: 3,
    dtype: 'uint16' as const,
    tileSize: 256,
    originX: 400_000,
    originY: 5_000_000,
    pixelSize: 20,
    epsg: 32633,
    nodata: 0,
    bandNames: ['one', 'two', 'three'],
    scale: [0.5, 0.5, 0.5],
    offset: [-1, -1, -1],
    bigTiff,
    fill: (t: TileRequest, out: Samples) => {
      for (let r = 0; r < t.rows; r++) for (let c = 0; c < t.cols; c++) for (let b = 0; b < 3; b++) out[(r * 256 + c) * 3 + b] = value(t, c, r, b);
    },
  });
  for (const bigTiff of [false, true]) {
    it(`writes a valid ${bigTiff ? 'BigTIFF' : 'classic TIFF'} COG with the georeferencing, band metadata and values asked for`, async () => {
      const file = path.join(tmp, `writer-${bigTiff}.tif`);
      const bytes = writeCog(spec(bigTiff));
      assert.equal(bytes.subarray(0, 4).toString('latin1'), bigTiff ? 'II+\0' : 'II*\0');
      writeFileSync(file, bytes);
      const out = await gdal(PY, ['-m', 'osgeo_utils.samples.validate_cloud_optimized_geotiff', '--full-check=yes', file]);
      assert.match(out, /is a valid cloud optimized GeoTIFF/);
      const i = await info(file);
      assert.deepEqual(i.size, [700, 500]);
      assert.deepEqual(i.geoTransform, [400_000, 20, 0, 5_000_000, 0, -20]);
      assert.match(i.coordinateSystem.wkt, /ID\["EPSG",32633\]\]$/);
      assert.deepEqual(
        i.bands.map((b) => b.description),
        ['one', 'two', 'three'],
      );
      assert.deepEqual(
        i.bands.map((b) => [b.type, b.noDataValue, b.scale, b.offset]),
        Array(3).fill(['UInt16', 0, 0.5, -1]),
      );
      assert.deepEqual(i.bands[0].block, [256, 256]);
      assert.deepEqual(
        i.bands[0].overviews?.map((o) => o.size),
        [
          [350, 250],
          [175, 125],
        ],
      );
      const points: [number, number][] = [
        [0, 0],
        [699, 499],
        [300, 257],
        [511, 100],
      ];
      const got = (await gdal('gdallocationinfo', ['-valonly', file], {}, points.map(([c, r]) => `${c} ${r}`).join('\n') + '\n'))
        .trim()
        .split('\n')
        .map(Number);
      const t0: TileRequest = { level: 0, col0: 0, row0: 0, cols: 0, rows: 0, pixelSize: 20, width: 700, height: 500 };
      assert.deepEqual(
        got,
        points.flatMap(([c, r]) => [0, 1, 2].map((b) => value(t0, c, r, b))),
      );
      // -overview k reads the k-th overview, addressed in full-resolution pixels.
      const ov = (await gdal('gdallocationinfo', ['-valonly', '-overview', '2', file, '400', '240'])).trim().split('\n').map(Number);
      assert.deepEqual(
        ov,
        [0, 1, 2].map((b) => value({ ...t0, level: 2 }, 100, 60, b)),
      );
    });
  }
  it('refuses sizes it cannot lay out', () => {
    assert.throws(() => writeCog({ ...spec(false), tileSize: 100 }), /multiple of 16/);
    assert.throws(() => writeCog({ ...spec(false), width: 0 }), /positive/);
  });
});

describe('HTTP Range parsing', () => {
  it('answers single, suffix, open and merged ranges, ignores malformed ones, refuses what it cannot satisfy', () => {
    assert.deepEqual(parseRange(undefined, 100), { kind: 'whole' });
    assert.deepEqual(parseRange('bytes=0-9', 100), { kind: 'partial', spans: [{ start: 0, end: 10 }] });
    assert.deepEqual(parseRange('bytes=90-', 100), { kind: 'partial', spans: [{ start: 90, end: 100 }] });
    assert.deepEqual(parseRange('bytes=-5', 100), { kind: 'partial', spans: [{ start: 95, end: 100 }] });
    assert.deepEqual(parseRange('bytes=95-200', 100), { kind: 'partial', spans: [{ start: 95, end: 100 }] });
    assert.deepEqual(parseRange('bytes=20-29, 0-9,5-12', 100), {
      kind: 'partial',
      spans: [
        { start: 0, end: 13 },
        { start: 20, end: 30 },
      ],
    });
    assert.deepEqual(parseRange('bytes=100-', 100), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=-0', 100), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=5-1', 100), { kind: 'whole' });
    assert.deepEqual(parseRange('items=0-5', 100), { kind: 'whole' });
    assert.deepEqual(parseRange('bytes=a-b', 100), { kind: 'whole' });
    const many = Array.from({ length: MAX_RANGES + 1 }, (_, k) => `${k * 3}-${k * 3}`).join(',');
    assert.deepEqual(parseRange(`bytes=${many}`, 1000), { kind: 'unsatisfiable' });
  });
});

describe('synthetic spectra', () => {
  it('vegetation has a red edge, water is dark in the NIR, soil rises gently', () => {
    assert.ok(reflectance('vegetation', 842) / reflectance('vegetation', 665) > 8, 'vegetation NIR/red');
    assert.ok(reflectance('vegetation', 560) > reflectance('vegetation', 665), 'green peak');
    assert.ok(reflectance('vegetation', 750) - reflectance('vegetation', 700) > 0.15, 'steep red edge');
    assert.ok(reflectance('water', 842) < reflectance('water', 665) && reflectance('water', 842) < 0.02, 'water NIR');
    const soil = [450, 560, 665, 842, 1610].map((nm) => reflectance('soil', nm));
    assert.ok(
      soil.every((v, k) => k === 0 || v > soil[k - 1]),
      'soil rises',
    );
    assert.ok(soil[3] / soil[2] < 1.3, 'gently');
  });
});

describe('sandbox imagery over HTTP', () => {
  it('has the scenes these tests rely on', () => {
    assert.ok(bigRow && enmapRow && s2Row, 'seed 42 has a full-size S2 item, a clear EnMAP item and a clear 60 m S2 item');
  });

  it('an archive item carries a multi-band COG asset with eo:bands, raster:bands and its grid', async () => {
    const call = caller(sb);
    for (const row of [bigRow!, enmapRow!, s2Row!]) {
      const cid = COLLECTION_DEFS[row.c].id;
      const item = (await call('GET', `/v0/archives/collections/${cid}/items/${encodeURIComponent(row.id)}`)).body;
      const data = item.assets.data;
      assert.equal(data.type, 'image/tiff; application=geotiff; profile=cloud-optimized');
      assert.ok(data.roles.includes('data'));
      assert.ok(data.href.startsWith(`${sb.url}/`), 'on the sandbox host');
      const zone = Math.floor((row.lon + 180) / 6) + 1;
      const epsg = (row.lat >= 0 ? 32600 : 32700) + zone;
      assert.equal(item.properties['proj:epsg'], epsg);
      assert.equal(item.properties['proj:code'], `EPSG:${epsg}`);
      assert.equal(data['eo:bands'].length, data['raster:bands'].length);
      for (const b of data['eo:bands']) assert.ok(typeof b.name === 'string' && b.center_wavelength > 0.3 && b.center_wavelength < 2.6, JSON.stringify(b));
      for (const b of data['raster:bands']) assert.deepEqual([b.data_type, b.nodata], ['uint16', 0]);
      assert.deepEqual(item.assets.visual.type, data.type);
      const [h, w] = item.properties['proj:shape'];
      const tr = item.properties['proj:transform'];
      if (row === bigRow) {
        assert.deepEqual([h, w], [FULL_SIZE, FULL_SIZE]);
        assert.equal(tr[0], 10);
        assert.deepEqual(
          data['eo:bands'].map((b: { common_name: string }) => b.common_name),
          ['blue', 'green', 'red', 'nir'],
        );
      }
      if (row === enmapRow) assert.equal(data['eo:bands'].length, 224);
      if (row === s2Row) assert.equal(data['eo:bands'].length, 12);
      // The grid covers the footprint: every corner of the item's geometry falls inside it.
      const s = itemScene(row);
      for (const [lon, lat] of item.geometry.coordinates[0] as number[][]) {
        const [c, r] = pixelOf(s, lon, lat);
        assert.ok(row === bigRow || (c >= -0.01 && r >= -0.01 && c <= w + 0.01 && r <= h + 0.01), `${row.id} corner ${lon},${lat} at ${c},${r}`);
      }
    }
  });

  it('asset bytes need the token (thumbnails stay public); ranges give 206, 416, multipart', async () => {
    const cid = COLLECTION_DEFS[enmapRow!.c].id;
    const url = `${sb.url}/assets/${cid}/${encodeURIComponent(enmapRow!.id)}/data.tif`;
    const auth = { authorization: `Bearer ${sb.tokens.alice}` };
    assert.equal((await fetch(url, { headers: { range: 'bytes=0-15' } })).status, 401);
    assert.equal((await fetch(url.replace('data.tif', 'thumbnail.png'))).status, 200);
    const head = await fetch(url, { method: 'HEAD', headers: auth });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    const size = Number(head.headers.get('content-length'));
    assert.ok(size > 224 * 280 * 280 * 2, `size ${size}`);
    const first = await fetch(url, { headers: { ...auth, range: 'bytes=0-15' } });
    assert.equal(first.status, 206);
    assert.equal(first.headers.get('content-range'), `bytes 0-15/${size}`);
    const b0 = Buffer.from(await first.arrayBuffer());
    assert.equal(b0.length, 16);
    assert.equal(b0.subarray(0, 4).toString('latin1'), 'II*\0');
    // The last 8 bytes: a tile's last 4 bytes, then GDAL's trailer repeating them.
    const tail = Buffer.from(await (await fetch(url, { headers: { ...auth, range: 'bytes=-8' } })).arrayBuffer());
    assert.ok(tail.subarray(0, 4).equals(tail.subarray(4)), 'trailer');
    const past = await fetch(url, { headers: { ...auth, range: `bytes=${size}-` } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${size}`);
    const multi = await fetch(url, { headers: { ...auth, range: 'bytes=0-3,100-109' } });
    assert.equal(multi.status, 206);
    const ct = multi.headers.get('content-type') ?? '';
    const boundary = /^multipart\/byteranges; boundary=(.+)$/.exec(ct)?.[1];
    assert.ok(boundary, ct);
    const body = Buffer.from(await multi.arrayBuffer());
    assert.equal(Number(multi.headers.get('content-length')), body.length);
    const whole = Buffer.from(await (await fetch(url, { headers: { ...auth, range: 'bytes=0-109' } })).arrayBuffer());
    const parts = body.toString('latin1').split(`--${boundary}`);
    assert.equal(parts.length, 4, 'two parts and the closing delimiter');
    assert.match(parts[1], new RegExp(`Content-Range: bytes 0-3/${size}\\r\\n\\r\\n`));
    assert.ok(parts[1].endsWith(`${whole.subarray(0, 4).toString('latin1')}\r\n`));
    assert.match(parts[2], new RegExp(`Content-Range: bytes 100-109/${size}\\r\\n\\r\\n`));
    assert.ok(parts[2].endsWith(`${whole.subarray(100, 110).toString('latin1')}\r\n`));
    assert.equal(parts[3], '--\r\n');
    // Deterministic: the same bytes on a second read.
    const again = Buffer.from(await (await fetch(url, { headers: { ...auth, range: 'bytes=0-109' } })).arrayBuffer());
    assert.ok(again.equals(whole));
  });

  it('the full-size Sentinel-2 scene: GDAL reads its grid and the values the model meant, by ranges', async () => {
    const s = itemScene(bigRow!);
    const url = `${sb.url}/assets/sentinel-2-l2a/${encodeURIComponent(bigRow!.id)}/data.tif`;
    await validate(url, false);
    const i = await info(`/vsicurl/${url}`);
    assert.deepEqual(i.size, [10980, 10980]);
    assert.deepEqual(i.geoTransform, [s.originX, 10, 0, s.originY, 0, -10]);
    assert.match(i.coordinateSystem.wkt, new RegExp(`ID\\["EPSG",${s.epsg}\\]\\]$`));
    assert.deepEqual(
      i.bands.map((b) => b.description),
      ['B02', 'B03', 'B04', 'B08'],
    );
    assert.deepEqual(
      i.bands.map((b) => [b.scale, b.offset, b.noDataValue]),
      Array(4).fill([0.0001, -0.1, 0]),
    );
    assert.ok((i.bands[0].overviews ?? []).length >= 4);
    const points = [...pixelsOf(s, 'vegetation', 2), ...pixelsOf(s, 'water', 2), ...pixelsOf(s, 'built', 1), ...pixelsOf(s, 'soil', 1)];
    assert.equal(points.length, 6);
    const got = (await gdal('gdallocationinfo', ['-valonly', `/vsicurl/${url}`], env, points.map(([c, r]) => `${c} ${r}`).join('\n') + '\n'))
      .trim()
      .split('\n')
      .map(Number);
    assert.deepEqual(
      got,
      points.flatMap(([c, r]) => pixelTruth(s, c, r).dn),
    );
    // Vegetation is bright in the NIR and dark in the red; water the other way round.
    for (const [c, r] of pixelsOf(s, 'vegetation', 3)) {
      const [, , red, nir] = pixelTruth(s, c, r).value as number[];
      assert.ok((nir - red) / (nir + red) > 0.3, `NDVI at ${c},${r}`);
    }
    for (const [c, r] of pixelsOf(s, 'water', 3)) {
      const [, , red, nir] = pixelTruth(s, c, r).value as number[];
      assert.ok(nir < red, `water at ${c},${r}`);
    }
    // Geolocation: GDAL (PROJ) puts a lon/lat on the pixel our UTM maths says.
    const [lon, lat] = lonLatOf(s, 4321, 8765);
    const rep = await gdal('gdallocationinfo', ['-wgs84', `/vsicurl/${url}`, String(lon), String(lat)], env);
    assert.match(rep, /Location: \(4321P,8765L\)/);
    const truth = itemTruthAt(bigRow!, lon, lat);
    assert.deepEqual([truth?.col, truth?.row, truth?.dn], [4321, 8765, pixelTruth(s, 4321, 8765).dn]);
    assert.equal(itemTruthAt(bigRow!, lon + 5, lat), undefined, 'outside the grid');
  });

  it("small scenes pass the validator's full check (tile leaders and trailers), 224-band EnMAP included", async () => {
    for (const row of [enmapRow!]) {
      const cid = COLLECTION_DEFS[row.c].id;
      await validate(`${sb.url}/assets/${cid}/${encodeURIComponent(row.id)}/data.tif`, true);
      await validate(`${sb.url}/assets/${cid}/${encodeURIComponent(row.id)}/visual.tif`, true);
    }
    await validate(`${sb.url}/assets/sentinel-2-l2a/${encodeURIComponent(s2Row!.id)}/data.tif`, false);
  });

  it('the thumbnail is the visual COG in small: each of its pixels is the visual pixel under it', async () => {
    const cid = COLLECTION_DEFS[s2Row!.c].id;
    const base = `${sb.url}/assets/${cid}/${encodeURIComponent(s2Row!.id)}`;
    const thumb = path.join(tmp, 'thumb.png');
    writeFileSync(thumb, Buffer.from(await (await fetch(`${base}/thumbnail.png`)).arrayBuffer()));
    const script = [
      'import sys',
      'from osgeo import gdal',
      'import numpy as np',
      't = gdal.Open(sys.argv[1]).ReadAsArray().astype(int)',
      'v = gdal.Open("/vsicurl/" + sys.argv[2]).ReadAsArray().astype(int)',
      'h, w = v.shape[1], v.shape[2]',
      'rows = ((np.arange(128) + 0.5) * h / 128).astype(int)',
      'cols = ((np.arange(128) + 0.5) * w / 128).astype(int)',
      'print(int(np.abs(t - v[:, rows][:, :, cols]).max()), float(v.mean()))',
    ].join('\n');
    const [diff, mean] = (await gdal(PY, ['-c', script, thumb, `${base}/visual.tif`], env)).trim().split(' ').map(Number);
    assert.ok(mean > 30, `the visual is not empty (mean ${mean})`);
    assert.equal(diff, 0, 'thumbnail pixels differ from the visual COG');
  });

  it('AOI mosaics: http paths on the sandbox resolve to COGs clipped to the AOI; s3 paths stay; other users get nothing', async () => {
    const call = caller(sb);
    const aois = (await call('GET', '/v0/aois?limit=100')).body.aois as { aoi_id: string; satellite_id: string }[];
    const paths: { aoi: string; sat: string; path: string }[] = [];
    for (const a of aois) {
      const assets = (await call('GET', `/v0/aois/${a.aoi_id}/assets`)).body.assets as { path: string; visualization_id: string }[];
      for (const x of assets) paths.push({ aoi: a.aoi_id, sat: a.satellite_id, path: x.path });
    }
    const http = paths.filter((p) => p.path.startsWith(`${sb.url}/`));
    assert.ok(http.length > 0, 'some mosaics on the sandbox host');
    assert.ok(
      paths.some((p) => p.path.startsWith('s3://')),
      'some paths the editor cannot read',
    );
    const auth = { authorization: `Bearer ${sb.tokens.alice}` };
    for (const p of http) assert.equal((await fetch(p.path, { method: 'HEAD', headers: auth })).status, 200, p.path);
    const small = http.find((p) => p.sat === 'sentinel-2')!;
    await validate(small.path, false);
    const i = await info(`/vsicurl/${small.path}`);
    assert.equal(i.bands.length, 12);
    assert.equal(i.geoTransform[1], 10);
    // Clipped: the grid's corner lies outside the AOI's octagon, so it holds nodata.
    const corner = (await gdal('gdallocationinfo', ['-valonly', `/vsicurl/${small.path}`, '0', '0'], env)).trim().split('\n').map(Number);
    assert.deepEqual(corner, Array(12).fill(0));
    assert.equal((await fetch(small.path, { method: 'HEAD', headers: { authorization: `Bearer ${sb.tokens.bob}` } })).status, 403);
    assert.equal((await fetch(small.path.replace(/\d{4}-\d{2}-\d{2}\.tif$/, '1999-01-01.tif'), { method: 'HEAD', headers: auth })).status, 404);
  });
});
