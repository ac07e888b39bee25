import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { fromSearchFile, sinceLastRun, toSearchFile } from '../../src/commands/searchFiles/searchFile';
import type { SearchParams } from '../../src/panels/protocol';

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../schemas/eosearch.schema.json'), 'utf8')) as object;
const validate = new Ajv({ strict: false }).compile(schema);

const archive: SearchParams = {
  kind: 'archive',
  shape: 'polygon',
  ring: [
    [179, -17],
    [182, -17],
    [182, -15],
    [179, -15],
    [179, -17],
  ],
  collections: ['sentinel-2-l2a'],
  satellites: [],
  from: '2024-01-01',
  to: '2024-06-30',
  maxCloud: 20,
  sort: 'datetime-asc',
  limit: 25,
};

test('a saved search reads back as the same search, and the schema accepts it', () => {
  for (const p of [
    archive,
    { ...archive, kind: 'imagery' as const, collections: [], satellites: ['sat-1'], from: '', to: '', maxCloud: undefined },
    {
      ...archive,
      filters: [
        { id: 'view:off_nadir', max: 7.5 },
        { id: 'gsd', min: 10, max: 30 },
      ],
    },
  ]) {
    const file = JSON.parse(JSON.stringify(toSearchFile(p))) as unknown;
    assert.ok(validate(file), JSON.stringify(validate.errors));
    assert.deepEqual(fromSearchFile(file), { params: p });
  }
});

test('what the reader refuses, the schema refuses too, each with a reason', () => {
  const base = JSON.parse(JSON.stringify(toSearchFile(archive))) as Record<string, unknown>;
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['kind', { ...base, kind: 'stac' }, /kind/],
    ['imagery without satellites', { ...base, kind: 'imagery' }, /satellites/],
    [
      'open ring',
      {
        ...base,
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        },
      },
      /end where it starts/,
    ],
    ['date', { ...base, from: '2024-1-1' }, /from/],
    ['cloud', { ...base, maxCloud: 120 }, /maxCloud/],
    ['sort', { ...base, sort: 'random' }, /sort/],
    ['filter without bounds', { ...base, filters: [{ id: 'gsd' }] }, /needs "min", "max" or both/],
    ['filter with an extra part', { ...base, filters: [{ id: 'gsd', max: 3, baseUrl: 'x' }] }, /nothing else/],
    ['filter that is no property', { ...base, filters: [{ id: '<b>', max: 3 }] }, /property name/],
    ['limit', { ...base, limit: 0 }, /limit/],
    [
      'latitude',
      {
        ...base,
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 95],
              [1, 1],
              [0, 0],
            ],
          ],
        },
      },
      /off the globe/,
    ],
  ];
  for (const [name, file, reason] of cases) {
    const read = fromSearchFile(file);
    assert.ok('errors' in read && read.errors.some((e) => reason.test(e)), `${name}: ${JSON.stringify(read)}`);
    if (name !== 'open ring' && name !== 'date range') assert.equal(validate(file), false, `the schema accepts ${name}`);
  }
});

test("a filter outside its property's range, or fractional in an imagery search, is refused in words (the schema cannot know the range)", () => {
  const base = JSON.parse(JSON.stringify(toSearchFile(archive))) as Record<string, unknown>;
  assert.deepEqual(fromSearchFile({ ...base, filters: [{ id: 'view:off_nadir', max: 120 }] }), {
    errors: ['Off-nadir angle is from 0–90 °; 120 ° is outside it.'],
  });
  const imagery = { ...base, kind: 'imagery', satellites: ['sat-1'], collections: undefined, filters: [{ id: 'view:sun_elevation', min: 30.5 }] };
  assert.match(String((fromSearchFile(imagery) as { errors: string[] }).errors), /Sun elevation takes whole numbers/);
});

test("What's New starts at the day of the last run, never before the file's own start", () => {
  assert.equal(sinceLastRun(archive, '2024-03-05T10:00:00.000Z').from, '2024-03-05');
  assert.equal(sinceLastRun(archive, '2023-03-05T10:00:00.000Z').from, '2024-01-01');
  assert.equal(sinceLastRun({ ...archive, from: '' }, '2023-03-05T10:00:00.000Z').from, '2023-03-05');
  assert.equal(sinceLastRun(archive, undefined), archive);
});
