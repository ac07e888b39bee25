// "Use as insight input" from the STAC panel, in the builder's terms: the panel's argument is
// read (or refused), and a raster input filled from the STAC item follows rule 2 with the
// item's STAC URL and id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InputDefinition } from '../../../src/api/records';
import {
  buildInputValue,
  buildInsightDocument,
  choiceKindsFor,
  parseStacItemInput,
  serializeInsightDocument,
  stacItemBands,
  type InputChoice,
  type StacItemRef,
} from '../../../src/insights/build';
import { validateInsightText } from '../../../src/insights/validate';
import { aoi, asset, SPEC, square } from './fixtures';

const URL_OF = 'https://eo.example/v0/archives/collections/sentinel-2-l2a/items/S2A_20240501';

const def = (name: string): InputDefinition => {
  const d = SPEC.inputs.find((i) => i.name === name);
  assert.ok(d, name);
  return d;
};

function item(over: Partial<StacItemRef> = {}): StacItemRef {
  return {
    id: 'S2A_20240501',
    collection: 'sentinel-2-l2a',
    geometry: square(77.12, 28.42, 0.05),
    properties: { datetime: '2024-05-01T05:00:00Z' },
    assets: {},
    ...over,
  };
}

function stacChoice(over: Partial<Extract<InputChoice, { kind: 'stac-item' }>> = {}): InputChoice {
  return { kind: 'stac-item', item: item(), stacUrl: URL_OF, aoi: aoi(), ...over };
}

describe('insight input from a STAC item: the argument', () => {
  it('no argument, or one from another caller, asks as usual', () => {
    for (const arg of [undefined, null, 'x', [], { collection: 'c', id: 'i' }]) {
      assert.deepEqual(parseStacItemInput(arg), { ok: true, value: undefined }, JSON.stringify(arg));
    }
  });

  it('reads {stacItem, stacUrl} as the STAC panel posts it', () => {
    const r = parseStacItemInput({ stacItem: { ...item(), type: 'Feature', links: [], bbox: [1, 2, 3, 4] }, stacUrl: URL_OF });
    assert.ok(r.ok && r.value);
    assert.equal(r.value.item.id, 'S2A_20240501');
    assert.equal(r.value.item.collection, 'sentinel-2-l2a');
    assert.equal(r.value.stacUrl, URL_OF);
  });

  it('refuses an item without id or collection, and a URL that is not http(s)', () => {
    const bad = [
      [{ stacItem: { collection: 'c' }, stacUrl: URL_OF }, /no id or collection/],
      [{ stacItem: { id: '', collection: 'c' }, stacUrl: URL_OF }, /no id or collection/],
      [{ stacItem: { id: 'i' }, stacUrl: URL_OF }, /no id or collection/],
      [{ stacItem: item() }, /no http\(s\) STAC URL/],
      [{ stacItem: item(), stacUrl: 'file:///etc/passwd' }, /no http\(s\) STAC URL/],
      [{ stacItem: item(), stacUrl: 'not a url' }, /no http\(s\) STAC URL/],
    ] as const;
    for (const [arg, why] of bad) {
      const r = parseStacItemInput(arg);
      assert.equal(r.ok, false, JSON.stringify(arg));
      assert.match(r.ok ? '' : r.reason, why);
    }
  });
});

describe('insight input from a STAC item: the builder', () => {
  it("rule 2: stac_url is the item's URL, asset_source a raw mosaic with the item id", () => {
    const d = def('imagery');
    const r = buildInputValue(d, stacChoice());
    assert.ok(r.ok, r.ok ? '' : r.reason);
    const v = r.value;
    assert.ok(v);
    assert.equal(v.stac_url, URL_OF);
    assert.deepEqual(v.asset_source, { type: 'raw_mosaic', id: 'S2A_20240501' });
    assert.equal(v.value, undefined);
    assert.equal(v.type, d.type || 'url');
    assert.deepEqual(v.properties, d.properties);
    assert.notEqual(v.properties, d.properties, 'the definition is copied, not shared');
  });

  it('is offered for raster inputs only', () => {
    assert.ok(choiceKindsFor('raster', true).includes('stac-item'));
    for (const f of ['vector', 'date', 'number', 'string', 'boolean']) assert.ok(!choiceKindsFor(f, false).includes('stac-item'), f);
    const r = buildInputValue(def('fields'), stacChoice());
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.reason, /Input "fields": a vector input cannot take a STAC item/);
  });

  it('refuses an item that does not touch the AOI, or has no footprint to tell', () => {
    const far = buildInputValue(def('imagery'), stacChoice({ item: item({ geometry: square(10, 10) }) }));
    assert.equal(far.ok, false);
    assert.match(far.ok ? '' : far.reason, /STAC item S2A_20240501 does not touch AOI "North field"/);
    const none = buildInputValue(def('imagery'), stacChoice({ item: item({ geometry: null }) }));
    assert.match(none.ok ? '' : none.reason, /has no geometry/);
    // without an AOI there is nothing to compare
    assert.equal(buildInputValue(def('imagery'), stacChoice({ item: item({ geometry: square(10, 10) }), aoi: undefined })).ok, true);
  });

  it('checks the bands when the item declares them (eo:bands names or common names), not when it does not', () => {
    const declared = item({
      assets: {
        B04: { href: 'https://x/B04.tif', 'eo:bands': [{ name: 'B04', common_name: 'red' }] },
        B08: { href: 'https://x/B08.tif', 'eo:bands': [{ name: 'B08', common_name: 'nir' }] },
      },
    });
    assert.deepEqual(stacItemBands(declared), ['B04', 'red', 'B08', 'nir']);
    assert.equal(buildInputValue(def('imagery'), stacChoice({ item: declared })).ok, true);
    const lacking = item({ properties: { 'eo:bands': [{ name: 'b02' }, { name: 'b04' }] } });
    const r = buildInputValue(def('imagery'), stacChoice({ item: lacking }));
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.reason, /missing B08/);
    assert.deepEqual(stacItemBands(item()), []);
    assert.equal(buildInputValue(def('imagery'), stacChoice()).ok, true, 'no bands declared: the service judges them');
  });

  it('refuses a STAC URL that is not http(s)', () => {
    const r = buildInputValue(def('imagery'), stacChoice({ stacUrl: 'ftp://x/item' }));
    assert.match(r.ok ? '' : r.reason, /no http\(s\) STAC URL/);
  });

  it('a whole document with the item as its raster input passes the validator', () => {
    const choices = new Map<string, InputChoice>([
      ['imagery', stacChoice()],
      ['fields', { kind: 'aoi-geometry', aoi: aoi(), asset: asset() }],
      ['season_start', { kind: 'text', text: '2024-03-01' }],
      ['previous', { kind: 'skip' }],
    ]);
    const built = buildInsightDocument('from stac', SPEC, choices);
    assert.ok(built.ok, built.ok ? '' : built.reason);
    const imagery = built.value.input.find((i) => i.name === 'imagery');
    assert.deepEqual(imagery?.asset_source, { type: 'raw_mosaic', id: 'S2A_20240501' });
    assert.deepEqual(validateInsightText(serializeInsightDocument(built.value), { status: 'found', spec: SPEC }), []);
  });
});
