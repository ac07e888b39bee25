import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InputDefinition } from '../../../src/api/records';
import {
  buildInputValue,
  buildInsightDocument,
  checkInsightName,
  coveringAssets,
  insightFileName,
  offerAssets,
  serializeInsightDocument,
  type InputChoice,
} from '../../../src/insights/build';
import { validateInsightText } from '../../../src/insights/validate';
import { aoi, asset, insight, SPEC, square } from './fixtures';

const def = (name: string): InputDefinition => {
  const d = SPEC.inputs.find((i) => i.name === name);
  assert.ok(d, name);
  return d;
};

function ok<T>(r: { ok: true; value: T } | { ok: false; reason: string }): T {
  if (!r.ok) assert.fail(`refused: ${r.reason}`);
  return r.value;
}

function refused(r: { ok: boolean; reason?: string }, pattern: RegExp): void {
  assert.equal(r.ok, false, 'expected a refusal');
  assert.match(r.reason ?? '', pattern);
}

describe('insight builder: the rules', () => {
  it('rule 1: copies the definition (deeply) and adds a value', () => {
    const d = def('imagery');
    const v = ok(buildInputValue(d, { kind: 'asset', asset: asset() }));
    assert.ok(v);
    for (const k of ['format', 'name', 'type', 'description', 'required'] as const) assert.deepEqual(v[k], d[k]);
    assert.deepEqual(v.properties, d.properties);
    assert.notEqual(v.properties, d.properties, 'the definition is copied, not shared');
  });

  it('rule 2: raster from an AOI asset gets stac_url and a raw_mosaic asset_source with the asset id', () => {
    const v = ok(buildInputValue(def('imagery'), { kind: 'asset', asset: asset({ id: 'a-77' }) }));
    assert.equal(v?.stac_url, 'https://data.example/aoi-1/mosaic-2024-05-01.tif');
    assert.deepEqual(v?.asset_source, { type: 'raw_mosaic', id: 'a-77' });
    assert.equal(v?.value, undefined);
  });

  it("rule 2: only assets whose bands cover the input's are offered, others with the reason", () => {
    const good = asset({ id: 'good' });
    const lower = asset({ id: 'lower', band_list: ['b04', 'b08'] });
    const rgb = asset({ id: 'rgb', band_list: ['B02', 'B03', 'B04'] });
    const noPath = asset({ id: 'nopath', path: '' });
    assert.deepEqual(
      coveringAssets(def('imagery'), [good, lower, rgb, noPath]).map((a) => a.id),
      ['good', 'lower'],
    );
    const offers = offerAssets(def('imagery'), [rgb, noPath]);
    assert.equal(offers[0].refusal, 'lacks band B08');
    assert.equal(offers[1].refusal, 'has no path to reference');
    // An input that names no bands takes any asset with a path.
    assert.equal(coveringAssets(def('previous'), [rgb]).length, 1);
  });

  it("rule 3: raster from an insight output gets value, model_output source and the output's properties", () => {
    const ins = insight();
    const v = ok(buildInputValue(def('previous'), { kind: 'insight-output', insight: ins, outputName: 'classes' }));
    assert.equal(v?.value, 'https://data.example/insights/ins-9/classes.tif');
    assert.deepEqual(v?.asset_source, { type: 'model_output', id: 'ins-9' });
    assert.deepEqual(v?.properties?.visualisation, ins.output[0].properties.visualisation);
    assert.deepEqual(v?.properties?.discretization, ins.output[0].properties.discretization);
    assert.equal(v?.properties?.dtype, 'uint8');
    assert.equal(v?.stac_url, undefined);
  });

  it("rule 3: the output's properties win over the definition's, others are kept", () => {
    const v = ok(buildInputValue(def('imagery'), { kind: 'insight-output', insight: insight(), outputName: 'classes' }));
    assert.equal(v?.properties?.dtype, 'uint8');
    assert.deepEqual(v?.properties?.bands, ['B04', 'B08']);
  });

  it('rule 4: date, number, string and boolean values are stored as strings', () => {
    assert.equal(ok(buildInputValue(def('season_start'), { kind: 'text', text: ' 2024-03-01 ' }))?.value, '2024-03-01');
    assert.equal(ok(buildInputValue(def('season_start'), { kind: 'text', text: '2024-03-01T06:30:00Z' }))?.value, '2024-03-01T06:30:00Z');
    assert.equal(ok(buildInputValue(def('threshold'), { kind: 'text', text: '0.35' }))?.value, '0.35');
    assert.equal(ok(buildInputValue(def('threshold'), { kind: 'text', text: '-1e3' }))?.value, '-1e3');
    assert.equal(ok(buildInputValue(def('crop'), { kind: 'text', text: 'wheat 12' }))?.value, 'wheat 12');
    assert.equal(ok(buildInputValue(def('mask_clouds'), { kind: 'text', text: 'TRUE' }))?.value, 'true');
  });

  it('rule 5: a vector from the AOI geometry carries GeoJSON text and an asset_source', () => {
    const a = aoi();
    const v = ok(buildInputValue(def('fields'), { kind: 'aoi-geometry', aoi: a, asset: asset() }));
    assert.deepEqual(JSON.parse(v?.value ?? ''), a.geometry);
    assert.deepEqual(v?.asset_source, { type: 'raw_mosaic', id: 'asset-1' });
    assert.equal(v?.stac_url, asset().path);
  });

  it('rule 5: a vector from a GeoJSON file that touches the AOI', () => {
    const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: square(77.15, 28.45, 0.01) }] };
    const v = ok(buildInputValue(def('fields'), { kind: 'geojson', geojson: fc, label: 'fields.geojson', asset: asset(), aoi: aoi() }));
    assert.deepEqual(JSON.parse(v?.value ?? ''), fc);
    assert.deepEqual(v?.asset_source, { type: 'raw_mosaic', id: 'asset-1' });
  });

  it('rule 6: type is always set, from the spec or, when it gives none, from the format', () => {
    const noType = { ...def('threshold'), type: '' };
    assert.equal(ok(buildInputValue(noType, { kind: 'text', text: '3' }))?.type, 'number');
    const rasterNoType = { ...def('imagery'), type: '' };
    assert.equal(ok(buildInputValue(rasterNoType, { kind: 'asset', asset: asset() }))?.type, 'url');
    assert.equal(ok(buildInputValue(def('crop'), { kind: 'text', text: 'x' }))?.type, 'string');
  });

  it("builds {name, block, input} in the spec's order, leaving out skipped optional inputs", () => {
    const choices = new Map<string, InputChoice>([
      ['season_start', { kind: 'text', text: '2024-03-01' }],
      ['imagery', { kind: 'asset', asset: asset() }],
      ['fields', { kind: 'aoi-geometry', aoi: aoi(), asset: asset() }],
      ['threshold', { kind: 'skip' }],
      ['previous', { kind: 'insight-output', insight: insight(), outputName: 'classes' }],
    ]);
    const doc = ok(buildInsightDocument(' north field ', SPEC, choices));
    assert.equal(doc.name, 'north field');
    assert.deepEqual(doc.block, { name: 'crop-health', version: '1.2.0' });
    assert.deepEqual(
      doc.input.map((i) => i.name),
      ['imagery', 'fields', 'season_start', 'previous'],
    );
    assert.equal(insightFileName(doc.name), 'north field.insight.json');
    const text = serializeInsightDocument(doc);
    assert.ok(text.endsWith('}\n'));
    const diags = validateInsightText(text, { status: 'found', spec: SPEC });
    assert.deepEqual(diags, []);
  });
});

describe('insight builder: refusals', () => {
  it('an asset that lacks a required band', () => {
    refused(buildInputValue(def('imagery'), { kind: 'asset', asset: asset({ band_list: ['B02', 'B03', 'B04'] }) }), /missing B08/);
  });

  it('an asset without a path', () => {
    refused(buildInputValue(def('imagery'), { kind: 'asset', asset: asset({ path: '' }) }), /no path/);
  });

  it('an insight without the named output', () => {
    refused(
      buildInputValue(def('previous'), { kind: 'insight-output', insight: insight(), outputName: 'nope' }),
      /no output "nope" \(outputs: classes, report\)/,
    );
  });

  it('an output that is not a raster', () => {
    refused(buildInputValue(def('previous'), { kind: 'insight-output', insight: insight(), outputName: 'report' }), /is vector, not raster/);
  });

  it('an output without a storage URL yet', () => {
    const running = insight({ status: 'processing' });
    running.output[0].value = '';
    refused(buildInputValue(def('previous'), { kind: 'insight-output', insight: running, outputName: 'classes' }), /no storage URL yet \(status processing\)/);
  });

  it('a GeoJSON file that is not GeoJSON, or holds no geometry', () => {
    refused(
      buildInputValue(def('fields'), { kind: 'geojson', geojson: [1, 2], label: 'a.json', asset: asset() }),
      /a\.json: the file does not hold a GeoJSON object/,
    );
    refused(
      buildInputValue(def('fields'), { kind: 'geojson', geojson: { type: 'FeatureCollection', features: [] }, label: 'b.json', asset: asset() }),
      /holds no geometry/,
    );
    refused(
      buildInputValue(def('fields'), { kind: 'geojson', geojson: { type: 'Circle', coordinates: [1, 2] }, label: 'c.json', asset: asset() }),
      /not a GeoJSON geometry type/,
    );
    refused(
      buildInputValue(def('fields'), {
        kind: 'geojson',
        geojson: { type: 'Feature', geometry: { type: 'Polygon', coordinates: [] } },
        label: 'd.json',
        asset: asset(),
      }),
      /no coordinates/,
    );
  });

  it('a GeoJSON file that does not touch the AOI', () => {
    const far = { type: 'Feature', properties: {}, geometry: square(10, 10) };
    refused(
      buildInputValue(def('fields'), { kind: 'geojson', geojson: far, label: 'far.geojson', asset: asset(), aoi: aoi() }),
      /does not touch AOI "North field"/,
    );
  });

  it("values that are not of the input's type", () => {
    refused(buildInputValue(def('season_start'), { kind: 'text', text: '2024-02-30' }), /not a calendar date/);
    refused(buildInputValue(def('season_start'), { kind: 'text', text: 'yesterday' }), /not a date/);
    refused(buildInputValue(def('season_start'), { kind: 'text', text: '2024-03-01T25:00:00Z' }), /not a valid date-time/);
    refused(buildInputValue(def('threshold'), { kind: 'text', text: '0.3.5' }), /not a number/);
    refused(buildInputValue(def('threshold'), { kind: 'text', text: 'Infinity' }), /not a number/);
    refused(buildInputValue(def('threshold'), { kind: 'text', text: '' }), /not a number/);
    refused(buildInputValue(def('mask_clouds'), { kind: 'text', text: 'yes' }), /not a boolean/);
  });

  it('a string input typed number in the spec must still be a number', () => {
    refused(buildInputValue({ ...def('crop'), type: 'number' }, { kind: 'text', text: 'wheat' }), /not a number/);
  });

  it('a required input that is skipped, left empty or not chosen', () => {
    refused(buildInputValue(def('imagery'), { kind: 'skip' }), /required and cannot be skipped/);
    refused(buildInputValue({ ...def('crop'), required: true }, { kind: 'text', text: '  ' }), /required and the value is empty/);
    refused(buildInsightDocument('x', SPEC, new Map()), /Input "imagery": it is required and nothing was chosen/);
  });

  it('an input whose definition does not say `required` is required (as the service reads it)', () => {
    const { required: _r, ...noFlag } = def('crop');
    refused(buildInputValue(noFlag, { kind: 'skip' }), /required and cannot be skipped/);
    const diags = validateInsightText(JSON.stringify({ name: 'x', block: { name: 'b', version: '1' }, input: [] }), {
      status: 'found',
      spec: { name: 'b', version: '1', inputs: [noFlag] },
    });
    assert.deepEqual(
      diags.map((d) => d.code),
      ['input-required-missing'],
    );
  });

  it('a choice that does not fit the format', () => {
    refused(buildInputValue(def('threshold'), { kind: 'asset', asset: asset() }), /a number input cannot take an AOI asset/);
    refused(buildInputValue(def('imagery'), { kind: 'text', text: 'x' }), /a raster input cannot take a typed value/);
  });

  it('a format the builder does not know', () => {
    refused(
      buildInputValue({ ...def('crop'), format: 'pointcloud', required: true }, { kind: 'text', text: 'x' }),
      /format "pointcloud" is not one the builder knows/,
    );
  });

  it('bad names, empty specs, duplicate definitions and choices for inputs the spec lacks', () => {
    assert.match(checkInsightName('') ?? '', /needs a name/);
    assert.match(checkInsightName('a/b') ?? '', /cannot contain/);
    assert.match(checkInsightName('.hidden') ?? '', /cannot start with a dot/);
    assert.match(checkInsightName('tab\there') ?? '', /control characters/);
    assert.equal(checkInsightName('North field 2024'), undefined);
    refused(buildInsightDocument('x', { ...SPEC, inputs: [] }, new Map()), /declares no inputs/);
    refused(buildInsightDocument('x', { ...SPEC, inputs: [def('crop'), def('crop')] }, new Map()), /declares input "crop" twice/);
    refused(buildInsightDocument('x', SPEC, new Map([['nope', { kind: 'skip' }]])), /has no input "nope"/);
  });
});
