/**
 * Contract: the visualization PNG and AOI asset downloads (docs/service-interface.md,
 * "Visualizations" and "AOIs and assets"), over HTTP to the sandbox CLI with plain `fetch`.
 * Expectations come from the OpenAPI (atlas.PngRequest, atlas.DownloadCreateModel,
 * atlas.DownloadReadModel) and the decisions the document records (the picture covers the
 * AOI's box with rows evenly spaced in Web Mercator, transparent outside the AOI).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON, checked by the schemas */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import { decodePng, pixel } from './pngDecode';
import * as S from './schemas';
import { type Service, startService } from './service';

const ajv = new Ajv({ allErrors: true, strict: false });
function check(schema: object, value: unknown, what: string): void {
  const v = ajv.compile(schema);
  assert.ok(v(value), `${what}: ${ajv.errorsText(v.errors, { separator: '\n' })}`);
}

type Reply = { status: number; type: string; bytes: Buffer; json: any };

/** Even-odd test against the polygon's rings. */
function inside(rings: number[][][], lon: number, lat: number): boolean {
  let yes = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) yes = !yes;
    }
  }
  return yes;
}

/** Longitudes made continuous along each ring (an AOI across the antimeridian). */
function unwrap(rings: number[][][]): number[][][] {
  return rings.map((ring) => {
    let shift = 0;
    return ring.map(([x, y], i) => {
      if (i > 0) {
        const prev = ring[i - 1][0];
        if (x - prev > 180) shift -= 360;
        else if (prev - x > 180) shift += 360;
      }
      return [x + shift, y];
    });
  });
}

const mercY = (lat: number): number => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
const latOf = (y: number): number => (Math.atan(Math.sinh(y)) * 180) / Math.PI;

describe('contract: visualization PNG and AOI asset downloads', () => {
  let svc: Service;
  const call = async (method: string, path: string, body?: unknown, auth = true): Promise<Reply> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth) headers.authorization = `Bearer ${svc.tokens.alice}`;
    const res = await fetch(path.startsWith('http') ? path : svc.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, type, bytes, json: type.includes('json') ? JSON.parse(bytes.toString('utf8')) : undefined };
  };
  let aoi: any;
  let ndvi: any;
  let assets: any[];

  before(async () => {
    svc = await startService(['--speed', '600']);
    const aois = (await call('GET', '/v0/aois?limit=20')).json.aois as any[];
    for (const a of aois) {
      const vis = (await call('GET', `/v0/aois/${a.aoi_id}/visualizations?limit=100`)).json.visualization as any[];
      const hit = vis.find((v) => /^preset-ndvi-/.test(v.index_id));
      if (hit && a.satellite_id === 'sentinel-2') {
        aoi = a;
        ndvi = hit;
        break;
      }
    }
    assert.ok(aoi, 'no Sentinel-2 AOI with an NDVI visualization in the seed');
    assets = (await call('GET', `/v0/aois/${aoi.aoi_id}/assets?limit=100`)).json.assets;
  });
  after(() => svc.close());

  const datesOf = (visId: string): string[] => [...new Set(assets.filter((a) => a.visualization_id === visId).map((a) => a.date as string))].sort();

  it("POST …/png: an image/png of the AOI's box, transparent outside the AOI, the same bytes when asked again", async () => {
    const date = datesOf(ndvi.id).at(-1) as string;
    const body = { index_id: ndvi.index_id, date: date.replace(/-/g, '_'), visualization_mode: 'theoretical' };
    check(S.pngRequest, body, 'PNG request');
    const r = await call('POST', `/v0/aois/${aoi.aoi_id}/visualizations/${ndvi.id}/png`, body);
    assert.equal(r.status, 200, r.bytes.toString('utf8').slice(0, 300));
    assert.match(r.type, /^image\/png/);
    const png = decodePng(r.bytes);
    const rings = unwrap(aoi.geometry.coordinates as number[][][]);
    const lons = rings.flat().map((p) => p[0]);
    const lats = rings.flat().map((p) => p[1]);
    const [w, e, s, n] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
    // the box's aspect in Web Mercator
    const aspect = ((e - w) * Math.PI) / 180 / (mercY(n) - mercY(s));
    assert.ok(
      Math.abs(png.width / png.height - aspect) < 0.02 * aspect + 2 / png.height,
      `a ${png.width} × ${png.height} picture for a box of aspect ${aspect.toFixed(3)}`,
    );
    let opaque = 0;
    let clear = 0;
    const step = Math.max(1, Math.floor(Math.min(png.width, png.height) / 40));
    for (let y = step; y < png.height - step; y += step) {
      for (let x = step; x < png.width - step; x += step) {
        const at = (px: number, py: number): boolean => {
          const lon = w + ((px + 0.5) / png.width) * (e - w);
          const lat = latOf(mercY(n) - ((py + 0.5) / png.height) * (mercY(n) - mercY(s)));
          return inside(rings, lon, lat);
        };
        const here = at(x, y);
        // away from the outline only: a pixel on it may go either way
        if (
          [
            [-2, 0],
            [2, 0],
            [0, -2],
            [0, 2],
          ].some(([dx, dy]) => at(x + dx, y + dy) !== here)
        )
          continue;
        const alpha = pixel(png, x, y)[3];
        if (here) {
          assert.equal(alpha, 255, `pixel (${x}, ${y}) inside the AOI is not drawn`);
          opaque++;
        } else {
          assert.equal(alpha, 0, `pixel (${x}, ${y}) outside the AOI is not transparent`);
          clear++;
        }
      }
    }
    assert.ok(opaque > 50, `only ${opaque} pixels inside the AOI were checked`);
    assert.ok(clear > 0 || rings[0].length === 5, 'no pixel outside the AOI was checked');
    const again = await call('POST', `/v0/aois/${aoi.aoi_id}/visualizations/${ndvi.id}/png`, body);
    assert.ok(again.bytes.equals(r.bytes), 'the same request gave another picture');
    const dynamic = await call('POST', `/v0/aois/${aoi.aoi_id}/visualizations/${ndvi.id}/png`, { ...body, visualization_mode: 'dynamic' });
    assert.equal(dynamic.status, 200);
    assert.ok(!dynamic.bytes.equals(r.bytes), 'the dynamic legend coloured the picture as the theoretical one');
  });

  it('POST …/png refuses what the OpenAPI does not allow, with its JSON error body', async () => {
    const date = (datesOf(ndvi.id).at(-1) as string).replace(/-/g, '_');
    const path = `/v0/aois/${aoi.aoi_id}/visualizations/${ndvi.id}/png`;
    const cases: [unknown, number, RegExp][] = [
      [{ index_id: ndvi.index_id, date: '1999_01_01', visualization_mode: 'dynamic' }, 404, /1999_01_01/],
      [{ index_id: ndvi.index_id, date: date.replace(/_/g, '-'), visualization_mode: 'dynamic' }, 400, /date/],
      [{ index_id: ndvi.index_id, date, visualization_mode: 'loud' }, 400, /visualization_mode/],
      [{ index_id: ndvi.index_id, date }, 400, /visualization_mode/],
      [{ index_id: 'no-such-index', date, visualization_mode: 'dynamic' }, 404, /index/],
    ];
    for (const [body, status, message] of cases) {
      const r = await call('POST', path, body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.status} ${r.bytes.toString('utf8').slice(0, 200)}`);
      check(S.errorResponse, r.json, `${JSON.stringify(body)} error`);
      assert.match(r.json.error.message, message);
    }
    const other = await call('POST', `/v0/aois/${aoi.aoi_id}/visualizations/no-such-visualization/png`, {
      index_id: ndvi.index_id,
      date,
      visualization_mode: 'dynamic',
    });
    assert.equal(other.status, 404);
    assert.equal((await call('POST', path, { index_id: ndvi.index_id, date, visualization_mode: 'dynamic' }, false)).status, 401);
  });

  it('POST /v0/aois/{aoi_id}/downloads → 201 {download_id, status}; GET until SUCCESS; the signed URL serves the GeoTIFF without the token', async () => {
    const mosaic = assets.find((a) => !a.visualization_id);
    const body = { asset_ids: [mosaic.id] };
    check(S.aoiDownloadRequest, body, 'download request');
    const made = await call('POST', `/v0/aois/${aoi.aoi_id}/downloads`, body);
    assert.equal(made.status, 201, made.bytes.toString('utf8').slice(0, 300));
    check(S.aoiDownload, made.json, 'created download');
    let d = made.json;
    for (let i = 0; i < 100 && d.status !== 'SUCCESS'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const g = await call('GET', `/v0/aois/${aoi.aoi_id}/downloads/${made.json.download_id}`);
      assert.equal(g.status, 200);
      check(S.aoiDownload, g.json, 'download');
      d = g.json;
    }
    assert.equal(d.status, 'SUCCESS');
    assert.match(d.signed_url, /^https?:\/\//);
    const file = await fetch(d.signed_url);
    assert.equal(file.status, 200);
    const head = Buffer.from(await file.arrayBuffer());
    assert.ok(
      head.subarray(0, 4).equals(Buffer.from('II*\0', 'latin1')) || head.subarray(0, 4).equals(Buffer.from('II+\0', 'latin1')),
      'not a little-endian TIFF',
    );
    assert.equal(Number(file.headers.get('content-length')), head.length);
    assert.match(file.headers.get('content-disposition') ?? '', /filename/);
  });

  it('downloads: 404 for an asset of another AOI or none, and for an unknown download; 400 without asset_ids', async () => {
    const r404 = await call('POST', `/v0/aois/${aoi.aoi_id}/downloads`, { asset_ids: ['no-such-asset'] });
    assert.equal(r404.status, 404);
    check(S.errorResponse, r404.json, 'unknown asset');
    assert.equal((await call('POST', `/v0/aois/${aoi.aoi_id}/downloads`, { asset_ids: [] })).status, 400);
    assert.equal((await call('POST', `/v0/aois/${aoi.aoi_id}/downloads`, {})).status, 400);
    assert.equal((await call('GET', `/v0/aois/${aoi.aoi_id}/downloads/no-such-download`)).status, 404);
  });
});
