// Property: any block spec × any acceptable choice per input → a file that the validator and
// the JSON Schema both accept, and that keeps the spec's order and types.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import fc from 'fast-check';
import type { BlockSpec, InputDefinition } from '../../../src/api/records';
import { buildInsightDocument, coveringAssets, serializeInsightDocument, type InputChoice } from '../../../src/insights/build';
import { validateInsightText } from '../../../src/insights/validate';
import { aoi, asset, FIXTURES, insight, square } from './fixtures';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const schema = JSON.parse(readFileSync(path.join(FIXTURES, '../../../schemas/insight.schema.json'), 'utf8')) as object;
const validateSchema = new Ajv({ strict: false, allErrors: true }).compile(schema);

const BANDS = ['B02', 'B03', 'B04', 'B08', 'B11', 'B12'];
const FORMATS = ['raster', 'vector', 'date', 'number', 'string', 'boolean'] as const;
const TYPE_OF: Record<(typeof FORMATS)[number], string[]> = {
  raster: ['url', ''],
  vector: ['url', 'string', ''],
  date: ['string', ''],
  number: ['number', 'string', ''],
  string: ['string', ''],
  boolean: ['boolean', 'string', ''],
};

const definition = fc
  .record({
    format: fc.constantFrom(...FORMATS),
    required: fc.boolean(),
    bands: fc.subarray(BANDS, { maxLength: 3 }),
    description: fc.string({ maxLength: 20 }),
    typeIndex: fc.nat(2),
  })
  .map(({ format, required, bands, description, typeIndex }): Omit<InputDefinition, 'name'> => {
    const types = TYPE_OF[format];
    return {
      format,
      type: types[typeIndex % types.length],
      description,
      required,
      ...(format === 'raster' && bands.length > 0 ? { properties: { bands } } : {}),
    };
  });

const specArb = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), { minLength: 1, maxLength: 7 }).chain((names) =>
  fc.tuple(...names.map(() => definition)).map((defs): BlockSpec => ({
    name: 'generated',
    version: '0.1.0',
    inputs: defs.map((d, i) => ({ ...d, name: names[i] })),
  })),
);

const assets = [
  asset({ id: 'all', band_list: BANDS }),
  asset({ id: 'rgbn', band_list: ['B02', 'B03', 'B04', 'B08'], path: 'https://data.example/rgbn.tif' }),
  asset({ id: 'swir', band_list: ['B11', 'B12'], path: 'https://data.example/swir.tif' }),
];

const dateArb = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true })
  .chain((d) => fc.constantFrom(d.toISOString().slice(0, 10), d.toISOString(), d.toISOString().replace('.000Z', '+05:30')));
const numberArb = fc.oneof(fc.integer().map(String), fc.double({ noNaN: true, noDefaultInfinity: true }).map(String));

/** One acceptable choice for a definition (what the command would let the person pick). */
function choiceFor(def: InputDefinition): fc.Arbitrary<InputChoice> {
  const skip: fc.Arbitrary<InputChoice>[] = def.required ? [] : [fc.constant<InputChoice>({ kind: 'skip' })];
  const textKind = def.type === 'number' ? 'number' : def.type === 'boolean' ? 'boolean' : def.format;
  switch (def.format) {
    case 'raster': {
      const offered = coveringAssets(def, assets);
      return fc.oneof(
        ...offered.map((a) => fc.constant<InputChoice>({ kind: 'asset', asset: a })),
        fc.constant<InputChoice>({ kind: 'insight-output', insight: insight(), outputName: 'classes' }),
        ...skip,
      );
    }
    case 'vector':
      return fc.oneof(
        fc.constantFrom(...assets).map((a): InputChoice => ({ kind: 'aoi-geometry', aoi: aoi(), asset: a })),
        fc.constantFrom(...assets).map((a): InputChoice => ({
          kind: 'geojson',
          label: 'f.geojson',
          asset: a,
          aoi: aoi(),
          geojson: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { n: 1 }, geometry: square(77.12, 28.42, 0.02) }] },
        })),
        ...skip,
      );
    default: {
      const text =
        textKind === 'date'
          ? dateArb
          : textKind === 'number'
            ? numberArb
            : textKind === 'boolean'
              ? fc.constantFrom('true', 'false', 'TRUE', ' False ')
              : fc.string({ minLength: def.required ? 1 : 0 }).filter((s) => !def.required || s.trim() !== '');
      return fc.oneof(
        text.map((t): InputChoice => ({ kind: 'text', text: t })),
        ...skip,
      );
    }
  }
}

const caseArb = specArb.chain((spec) =>
  fc.tuple(...spec.inputs.map(choiceFor)).map((choices) => ({
    spec,
    choices: new Map(spec.inputs.map((d, i) => [d.name, choices[i]] as const)),
  })),
);

describe('builder × validator (property)', () => {
  it('any spec with any acceptable choices yields a file that the validator and the schema accept', () => {
    fc.assert(
      fc.property(caseArb, fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,30}$/), ({ spec, choices }, name) => {
        const built = buildInsightDocument(name, spec, choices);
        if (!built.ok) throw new Error(`refused: ${built.reason}`);
        const text = serializeInsightDocument(built.value);
        const diags = validateInsightText(text, { status: 'found', spec });
        assert.deepEqual(
          diags.map((d) => `${d.code}: ${d.message}`),
          [],
        );
        assert.ok(validateSchema(JSON.parse(text)), JSON.stringify(validateSchema.errors));
        // Spec order kept, skipped inputs left out, every input typed and string-valued.
        const expected = spec.inputs.filter((d) => choices.get(d.name)?.kind !== 'skip').map((d) => d.name);
        assert.deepEqual(
          built.value.input.map((i) => i.name),
          expected,
        );
        for (const v of built.value.input) {
          assert.ok(['url', 'string', 'number', 'boolean'].includes(v.type));
          if (v.value !== undefined) assert.equal(typeof v.value, 'string');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the same files, signed out, produce only the sign-in note', () => {
    fc.assert(
      fc.property(caseArb, ({ spec, choices }) => {
        const built = buildInsightDocument('n', spec, choices);
        if (!built.ok) throw new Error(built.reason);
        const codes = validateInsightText(serializeInsightDocument(built.value), { status: 'signed-out' }).map((d) => d.code);
        assert.deepEqual(codes, ['spec-needs-sign-in']);
      }),
      { numRuns: 100 },
    );
  });
});
