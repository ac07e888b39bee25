// Each mistake in an insight file shows once in Problems: the extension's validator owns every
// check it makes (it has the quick fixes and the block spec), and the JSON Schema that VS Code
// applies to *.insight.json must stay silent about those same mistakes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { validateInsightText } from '../../../src/insights/validate';
import { FIXTURES } from './fixtures';

const schema = JSON.parse(readFileSync(path.join(FIXTURES, '../../../schemas/insight.schema.json'), 'utf8')) as object;
const validateSchema = new Ajv({ strict: false, allErrors: true }).compile(schema);

const raster = { format: 'raster', name: 'image', type: 'url', stac_url: 'https://x/items/1', asset_source: { id: 'a1', type: 'raw_mosaic' } };
const doc = (over: Record<string, unknown>): unknown => ({ name: 'n', block: { name: 'b', version: '1' }, input: [raster], ...over });

const MISTAKES: [string, unknown, string][] = [
  ['the file is not an object', [], 'document-not-object'],
  ['no name', { block: { name: 'b', version: '1' }, input: [] }, 'name-missing'],
  ['an empty name', doc({ name: '' }), 'name-missing'],
  ['no block', { name: 'n', input: [] }, 'block-missing'],
  ['block.version a number', doc({ block: { name: 'b', version: 1 } }), 'block-version-missing'],
  ['input an object', doc({ input: {} }), 'input-missing'],
  ['an input entry a string', doc({ input: ['x'] }), 'input-entry-not-object'],
  ['an input without type', doc({ input: [{ format: 'number', name: 'k', value: '1' }] }), 'type-missing'],
  ['an unknown type', doc({ input: [{ format: 'number', name: 'k', type: 'float', value: '1' }] }), 'type-invalid'],
  ['a value that is not a string', doc({ input: [{ format: 'number', name: 'k', type: 'number', value: 1 }] }), 'value-not-string'],
  ['a raster without asset_source', doc({ input: [{ format: 'raster', name: 'image', type: 'url', stac_url: 'https://x' }] }), 'asset-source-missing'],
  ['asset_source.type unknown', doc({ input: [{ ...raster, asset_source: { id: 'a1', type: 'mosaic' } }] }), 'asset-source-type'],
  [
    'raw_mosaic without stac_url',
    doc({ input: [{ format: 'raster', name: 'image', type: 'url', asset_source: { id: 'a1', type: 'raw_mosaic' } }] }),
    'raw-mosaic-without-stac-url',
  ],
  [
    'model_output without value',
    doc({ input: [{ format: 'raster', name: 'image', type: 'url', asset_source: { id: 'i1', type: 'model_output' } }] }),
    'model-output-without-value',
  ],
];

describe('insight files: one diagnostic per mistake', () => {
  for (const [what, file, code] of MISTAKES) {
    it(`${what}: the validator reports it and the JSON Schema does not`, () => {
      const codes = validateInsightText(JSON.stringify(file, null, 2), undefined).map((d) => d.code);
      assert.ok(codes.includes(code as never), `the validator missed it: ${codes.join(', ')}`);
      assert.equal(validateSchema(file), true, `the schema reports it too: ${JSON.stringify(validateSchema.errors)}`);
    });
  }

  it('the schema still offers the values it knows for completion', () => {
    const s = schema as {
      definitions: { inputValue: { properties: { type: { examples?: string[] }; asset_source: { properties: { type: { examples?: string[] } } } } } };
    };
    assert.deepEqual(s.definitions.inputValue.properties.type.examples, ['url', 'string', 'number', 'boolean']);
    assert.deepEqual(s.definitions.inputValue.properties.asset_source.properties.type.examples, ['raw_mosaic', 'model_output']);
  });

  it('what the validator does not check, the schema still does', () => {
    assert.equal(validateSchema(doc({ input: [{ ...raster, required: 'yes' }] })), false);
  });
});
