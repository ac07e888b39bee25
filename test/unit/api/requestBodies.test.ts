/**
 * The request bodies our client builds, against the request schemas written from the
 * published OpenAPI (test/unit/contract/schemas.ts, docs/service-interface.md): the imagery
 * search body of the client and of the map's search panel. The satellites come from the
 * sandbox, as the extension would read them from the service.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import { EoClient } from '../../../src/api/client';
import { imagerySearchRequest } from '../../../src/api/imagerySearch';
import type { Polygon, Satellite } from '../../../src/api/records';
import { imagerySearchBody } from '../../../src/panels/mapData';
import { startSandbox } from '../../../src/sandbox';
import * as S from '../contract/schemas';

const ajv = new Ajv({ allErrors: true, strict: false });
const check = (schema: object, value: unknown, what: string): void => {
  const v = ajv.compile(schema);
  assert.ok(v(value), `${what}: ${ajv.errorsText(v.errors, { separator: '\n' })}`);
};

describe('request bodies the client builds follow the OpenAPI request schemas', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  let sats: Satellite[];
  before(async () => {
    sb = await startSandbox({ port: 0 });
    const res = await fetch(`${sb.url}/v0/satellites`, { headers: { authorization: `Bearer ${sb.tokens.alice}` } });
    sats = ((await res.json()) as { satellites: Satellite[] }).satellites;
  });
  after(() => sb?.close());

  it('imagery search: the client’s body and the map panel’s', () => {
    const s2 = sats.find((s) => s.id === 'sentinel-2');
    assert.ok(s2);
    const geometry: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [-120.45, 36.75],
          [-120.4, 36.75],
          [-120.4, 36.8],
          [-120.45, 36.8],
          [-120.45, 36.75],
        ],
      ],
    };
    check(S.imagerySearchRequest, imagerySearchRequest({ satellites: [s2], geometry, maxCloud: 40.5, limit: 5 }), 'client imagery search body');
    const mapBody = imagerySearchBody(
      {
        kind: 'imagery',
        shape: 'polygon',
        ring: geometry.coordinates[0] as [number, number][],
        satellites: ['sentinel-2'],
        collections: [],
        from: '2018-01-01',
        to: '',
        maxCloud: 30,
        sort: 'datetime-desc',
        limit: 10,
      },
      sats,
    );
    check(S.imagerySearchRequest, mapBody, 'map imagery search body');
  });

  it('visualization PNG and AOI download: the bodies the client sends', async () => {
    const sent: { path: string; body: unknown }[] = [];
    const client = new EoClient({
      baseUrl: sb.url,
      token: sb.tokens.alice,
      userAgent: 'test',
      onRequest: (e) => sent.push({ path: e.path, body: e.requestBody }),
    });
    try {
      const aoi = (await client.aois.listPage({ limit: 1 })).items[0];
      const vis = (await client.visualizations.listPage(aoi.aoi_id, { limit: 100 })).items.find((v) => /ndvi/.test(v.index_id));
      assert.ok(vis, 'no NDVI visualization');
      const assets = (await client.aois.assetsPage(aoi.aoi_id, { limit: 100 })).items;
      const own = assets.find((a) => a.visualization_id === vis.id);
      assert.ok(own);
      const png = await client.visualizationPng.render(aoi.aoi_id, vis.id, { index_id: vis.index_id, date: own.date, mode: 'dynamic' });
      assert.ok(png.width > 0 && png.height > 0);
      const made = await client.aoiDownloads.create(aoi.aoi_id, { asset_ids: [own.id] });
      assert.ok(made.download_id);
      const pngBody = sent.find((r) => r.path.endsWith('/png'))?.body;
      check(S.pngRequest, pngBody, 'client PNG body');
      assert.equal((pngBody as { date: string }).date, own.date.replace(/-/g, '_'));
      check(S.aoiDownloadRequest, sent.find((r) => r.path.endsWith('/downloads'))?.body, 'client AOI download body');
    } finally {
      await client.close();
    }
  });
});
