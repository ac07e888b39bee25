/**
 * The request bodies our client builds, against the request schemas written from the
 * published OpenAPI (test/unit/contract/schemas.ts, docs/service-interface.md): the imagery
 * search body of the client and of the map's search panel. The satellites come from the
 * sandbox, as the extension would read them from the service.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
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
    const geometry: Polygon = { type: 'Polygon', coordinates: [[[-120.45, 36.75], [-120.4, 36.75], [-120.4, 36.8], [-120.45, 36.8], [-120.45, 36.75]]] };
    check(S.imagerySearchRequest, imagerySearchRequest({ satellites: [s2], geometry, maxCloud: 40.5, limit: 5 }), 'client imagery search body');
    const mapBody = imagerySearchBody({ kind: 'imagery', shape: 'polygon', ring: geometry.coordinates[0] as [number, number][], satellites: ['sentinel-2'], collections: [], from: '2018-01-01', to: '', maxCloud: 30, sort: 'datetime-desc', limit: 10 }, sats);
    check(S.imagerySearchRequest, mapBody, 'map imagery search body');
  });
});
