/**
 * Archive items and collections validate against the STAC JSON schemas vendored in
 * test/fixtures/stac (with their licence), offline: every schema file is registered under its URL, and the two
 * GeoJSON schemas they reference remotely are registered as local equivalents.
 * The wire `bbox` is strings (a quirk the interface declares); the STAC schema wants numbers,
 * so items are checked as a client sees them after parsing the bbox.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { caller } from './helpers';

/** `test/fixtures/stac`, from the compiled `out/test/unit/sandbox` or the sources. */
const ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}out${path.sep}`) ? '../../../../test/fixtures/stac' : '../../fixtures/stac');
const BASE = 'https://schemas.stacspec.org/v1.1.0-beta.1/';

const position = { type: 'array', minItems: 2, items: { type: 'number' } };
const ring = { type: 'array', minItems: 4, items: position };
const geometry = {
  $id: 'https://geojson.org/schema/Geometry.json',
  oneOf: [
    { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'Point' }, coordinates: position } },
    {
      type: 'object',
      required: ['type', 'coordinates'],
      properties: { type: { const: 'LineString' }, coordinates: { type: 'array', minItems: 2, items: position } },
    },
    { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'Polygon' }, coordinates: { type: 'array', items: ring } } },
    {
      type: 'object',
      required: ['type', 'coordinates'],
      properties: { type: { const: 'MultiPolygon' }, coordinates: { type: 'array', items: { type: 'array', items: ring } } },
    },
  ],
};
const feature = {
  $id: 'https://geojson.org/schema/Feature.json',
  type: 'object',
  required: ['type', 'properties', 'geometry'],
  properties: {
    type: { const: 'Feature' },
    properties: { oneOf: [{ type: 'null' }, { type: 'object' }] },
    geometry: { oneOf: [{ type: 'null' }, { $ref: 'https://geojson.org/schema/Geometry.json' }] },
    bbox: { type: 'array', minItems: 4 },
  },
};

function loadAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('iri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
  ajv.addSchema(geometry);
  ajv.addSchema(feature);
  for (const dir of ['item-spec', 'collection-spec', 'catalog-spec']) {
    const d = path.join(ROOT, dir, 'json-schema');
    for (const f of readdirSync(d)) {
      const schema = JSON.parse(readFileSync(path.join(d, f), 'utf8')) as Record<string, unknown>;
      // Register each file under the URL it is referenced by (one upstream $id has a typo).
      schema.$id = `${BASE}${dir}/json-schema/${f}`;
      ajv.addSchema(schema);
    }
  }
  return ajv;
}

let sb: SandboxHandle;
before(async () => {
  sb = await startSandbox({ port: 0 });
});
after(() => sb.close());

describe('STAC schema validity', () => {
  it('every item of every collection (500+ in two of them) is a valid STAC Item', async () => {
    const ajv = loadAjv();
    const validate = ajv.getSchema(`${BASE}item-spec/json-schema/item.json`)!;
    const call = caller(sb);
    const cols = (await call('GET', '/v0/archives/collections')).body.collections as { id: string }[];
    let big = 0;
    for (const c of cols) {
      let n = 0;
      for (let off = 0; ; off += 1000) {
        const r = await call('POST', '/v0/archives/search', { collections: [c.id], limit: 1000, offset: off });
        for (const f of r.body.features as Record<string, unknown>[]) {
          assert.ok(
            (f.bbox as unknown[]).every((v) => typeof v === 'string'),
            'bbox on the wire is strings',
          );
          const parsed = { ...f, bbox: (f.bbox as string[]).map(Number) };
          assert.ok(validate(parsed), `${String(f.id)}: ${ajv.errorsText(validate.errors)}`);
          n++;
        }
        if (r.body.features.length < 1000) break;
      }
      if (n >= 500) big++;
    }
    assert.ok(big >= 2, 'at least two collections with 500+ items');
  });
  it('every collection is a valid STAC Collection', async () => {
    const ajv = loadAjv();
    const validate = ajv.getSchema(`${BASE}collection-spec/json-schema/collection.json`)!;
    const cols = (await caller(sb)('GET', '/v0/archives/collections')).body.collections as Record<string, unknown>[];
    for (const c of cols) assert.ok(validate(c), `${String(c.id)}: ${ajv.errorsText(validate.errors)}`);
  });
  it('the validator is not vacuous: a broken item fails', async () => {
    const ajv = loadAjv();
    const validate = ajv.getSchema(`${BASE}item-spec/json-schema/item.json`)!;
    const f = (await caller(sb)('POST', '/v0/archives/search', { limit: 1 })).body.features[0];
    assert.equal(validate(f), false, 'string bbox is not STAC');
    assert.equal(validate({ ...f, bbox: f.bbox.map(Number), stac_version: '0.9.0' }), false);
    assert.equal(validate({ ...f, bbox: f.bbox.map(Number), properties: { ...f.properties, datetime: null } }), false);
  });
});
