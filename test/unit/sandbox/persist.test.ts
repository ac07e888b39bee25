/** --data-dir: state written atomically and reloaded; determinism from the seed; geo helpers. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { geodesicArea, polygonCentroid, ringSelfIntersects } from '../../../src/geo/area';
import { bboxesIntersect, geometryBbox } from '../../../src/geo/bbox';
import { geometriesIntersect } from '../../../src/geo/intersects';
import { startSandbox } from '../../../src/sandbox';
import type { Polygon } from '../../../src/api/records';
import { caller } from './helpers';

describe('persistence', () => {
  it('keeps created records across restarts and leaves no temp files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sbx-'));
    try {
      const a = await startSandbox({ port: 0, dataDir: dir, seed: 5 });
      const r = await caller(a)('POST', '/v0/stores', {
        name: 'kept',
        type: 'S3',
        configs: { bucket: 'b', region: 'r', path_prefix: '' },
        secrets: { access_key_id: 'k', secret_access_key: 'topsecret-value' },
      });
      assert.equal(r.status, 201);
      await a.close();
      const files = readdirSync(dir);
      assert.deepEqual(files, ['sandbox-state.json']);
      assert.ok(!readFileSync(path.join(dir, files[0]), 'utf8').includes('topsecret-value'), 'secret values are never stored');
      const b = await startSandbox({ port: 0, dataDir: dir, seed: 5 });
      const stores = (await caller(b)('GET', '/v0/stores')).body.stores as { id: string }[];
      assert.ok(stores.some((s) => s.id === r.body.id));
      await b.close();
      await assert.rejects(startSandbox({ port: 0, dataDir: dir, seed: 6 }), /seed 5/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('an insight run with a nested extra key is stored without it; one nested past the limit is refused; later saves still work', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sbx-'));
    try {
      const sb = await startSandbox({ port: 0, dataDir: dir, seed: 5 });
      let closed = false;
      try {
        const alice = caller(sb);
        const aois = (await alice('GET', '/v0/aois?limit=100')).body.aois as { aoi_id: string; project_id: string }[];
        let aoi: { aoi_id: string; project_id: string } | undefined;
        let mosaic: { id: string; path: string } | undefined;
        for (const a of aois) {
          mosaic = ((await alice('GET', `/v0/aois/${a.aoi_id}/assets?limit=1`)).body.assets as { id: string; path: string }[])[0];
          if (mosaic) {
            aoi = a;
            break;
          }
        }
        assert.ok(aoi && mosaic, 'the seed has no AOI with an asset');
        const image = {
          format: 'raster',
          name: 'image',
          type: 'url',
          description: 'd',
          stac_url: mosaic.path,
          asset_source: { id: mosaic.id, type: 'raw_mosaic' },
        };
        const body = (levels: number): string =>
          `{"name":"deep","project_id":${JSON.stringify(aoi.project_id)},"block":{"name":"water-extent","version":"0.9.1"},"input":[${JSON.stringify(image)},` +
          `{"format":"number","name":"threshold","type":"number","description":"d","value":"0.3","extra":${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}},` +
          '{"format":"boolean","name":"include_wetlands","type":"boolean","description":"d","value":"false"}]}';
        // 20,000 levels would stall the sandbox's parser: refused before parsing, in words.
        const refused = await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, body(20_000));
        assert.equal(refused.status, 400, refused.text.slice(0, 200));
        assert.match(refused.text, /levels deep/);
        const run = await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, body(50));
        assert.equal(run.status, 201, run.text.slice(0, 200));
        const store = await alice('POST', '/v0/stores', {
          name: 'after-deep',
          type: 'S3',
          configs: { bucket: 'b', region: 'r', path_prefix: '' },
          secrets: { access_key_id: 'k', secret_access_key: 's' },
        });
        assert.equal(store.status, 201, store.text.slice(0, 200));
        await sb.close();
        closed = true;
      } finally {
        if (!closed) await sb.close();
      }
      assert.deepEqual(readdirSync(dir), ['sandbox-state.json']);
      const saved = readFileSync(path.join(dir, 'sandbox-state.json'), 'utf8');
      assert.ok(saved.includes('after-deep'), 'the later write reached the disk');
      assert.ok(!saved.includes('"extra"'), 'the unchecked key was stored');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a save that fails answers 500, keeps nothing in memory and leaves no temp file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sbx-'));
    try {
      const sb = await startSandbox({ port: 0, dataDir: dir, seed: 5 });
      try {
        const alice = caller(sb);
        // The state file becomes a non-empty directory: the rename over it fails (even as root).
        rmSync(path.join(dir, 'sandbox-state.json'));
        mkdirSync(path.join(dir, 'sandbox-state.json', 'blocker'), { recursive: true });
        const store = await alice('POST', '/v0/stores', {
          name: 'not-kept',
          type: 'S3',
          configs: { bucket: 'b', region: 'r', path_prefix: '' },
          secrets: { access_key_id: 'k', secret_access_key: 's' },
        });
        assert.equal(store.status, 500);
        const stores = (await alice('GET', '/v0/stores')).body.stores as { name: string }[];
        assert.ok(!stores.some((s) => s.name === 'not-kept'), 'memory kept a change the client was told failed');
        assert.deepEqual(readdirSync(dir), ['sandbox-state.json'], 'a temp file was left');
      } finally {
        await sb.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the same seed gives the same world; another seed a different one', async () => {
    const t = Date.UTC(2025, 0, 1);
    const a = await startSandbox({ port: 0, seed: 9, startTime: t });
    const b = await startSandbox({ port: 0, seed: 9, startTime: t });
    const c = await startSandbox({ port: 0, seed: 10, startTime: t });
    try {
      assert.ok(JSON.stringify(a.state) === JSON.stringify(b.state), 'same seed, same state');
      assert.ok(JSON.stringify(a.state) !== JSON.stringify(c.state), 'other seed, other state');
      const s1 = (await caller(a)('POST', '/v0/archives/search', { limit: 5 })).body.features.map((f: { id: string }) => f.id);
      const s2 = (await caller(b)('POST', '/v0/archives/search', { limit: 5 })).body.features.map((f: { id: string }) => f.id);
      assert.deepEqual(s1, s2);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
  it('custom tokens replace the defaults', async () => {
    const sb = await startSandbox({ port: 0, tokens: { alice: 'tok-a', bob: 'tok-b' } });
    try {
      assert.equal((await fetch(`${sb.url}/v0/stores`, { headers: { authorization: 'Bearer tok-a' } })).status, 200);
      assert.equal((await fetch(`${sb.url}/v0/stores`, { headers: { authorization: 'Bearer sandbox-alice' } })).status, 401);
    } finally {
      await sb.close();
    }
  });
});

describe('geo helpers', () => {
  const fiji: Polygon = {
    type: 'Polygon',
    coordinates: [
      [
        [179.5, -17],
        [-179.5, -17],
        [-179.5, -16],
        [179.5, -16],
        [179.5, -17],
      ],
    ],
  };
  it('bbox of a ring over the antimeridian has west > east; area and centroid are right', () => {
    const b = geometryBbox(fiji);
    assert.deepEqual(b, [179.5, -17, -179.5, -16]);
    const area = geodesicArea(fiji) / 1e6;
    assert.ok(area > 11_500 && area < 12_000, String(area));
    const [lon, lat] = polygonCentroid(fiji);
    assert.ok(Math.abs(Math.abs(lon) - 180) < 1e-6 && Math.abs(lat + 16.5) < 1e-3, `${lon},${lat}`);
  });
  it('boxes and geometries intersect across the antimeridian', () => {
    assert.ok(bboxesIntersect([179, -18, -179, -15], [-179.9, -17, -179.8, -16]));
    assert.ok(!bboxesIntersect([179, -18, -179, -15], [0, -17, 1, -16]));
    assert.ok(geometriesIntersect(fiji, { type: 'Point', coordinates: [-179.9, -16.5] }));
    assert.ok(!geometriesIntersect(fiji, { type: 'Point', coordinates: [0, -16.5] }));
  });
  it('detects bow-tie rings', () => {
    assert.ok(
      ringSelfIntersects([
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ]),
    );
    assert.ok(
      !ringSelfIntersects([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ]),
    );
  });
});
