import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Satellite } from '../../src/api/records';
import { archiveSearchBody, imagerySearchBody, offeredQueryables } from '../../src/panels/mapData';
import type { SearchParams } from '../../src/panels/protocol';
import { archiveQuery, commonQueryables, filterProblem, imageryFilters, queryableField } from '../../src/searchFilters';

const sat = (id: string, queryables: string[]): Satellite => ({
  id,
  name: id,
  bands: [],
  collections: [{ id: `${id}-c`, name: id, provider: 'pixxel', queryables }],
});
const landsat = sat('landsat', ['eo:cloud_cover', 'view:off_nadir', 'view:sun_elevation', 'gsd']);
const s2 = sat('s2', ['eo:cloud_cover', 'view:sun_elevation', 'gsd']);

const params: SearchParams = {
  kind: 'imagery',
  ring: [
    [10, 10],
    [11, 10],
    [11, 11],
    [10, 11],
    [10, 10],
  ],
  shape: 'polygon',
  collections: [],
  satellites: ['landsat'],
  from: '2024-01-01',
  to: '2024-02-01',
  maxCloud: 20,
  sort: 'datetime-desc',
  limit: 10,
};

test('known queryables carry their unit and range; others are offered by name with no range', () => {
  assert.deepEqual(queryableField('view:off_nadir'), { id: 'view:off_nadir', label: 'Off-nadir angle', unit: '°', min: 0, max: 90, ranged: true });
  assert.deepEqual(queryableField('view:sun_elevation'), { id: 'view:sun_elevation', label: 'Sun elevation', unit: '°', min: -90, max: 90, ranged: true });
  assert.equal(queryableField('gsd').unit, 'm');
  const odd = queryableField('rd:anomalous_pixels');
  assert.equal(odd.label, 'rd:anomalous_pixels');
  assert.equal(odd.ranged, false);
});

test('the filters offered are the chosen satellites’ queryables in common, cloud cover aside (it has its own control)', () => {
  assert.deepEqual(commonQueryables([landsat.collections[0].queryables]), ['view:off_nadir', 'view:sun_elevation', 'gsd']);
  assert.deepEqual(commonQueryables([landsat.collections[0].queryables, s2.collections[0].queryables]), ['view:sun_elevation', 'gsd']);
  assert.deepEqual(commonQueryables([undefined, s2.collections[0].queryables]), []);
  assert.deepEqual(offeredQueryables({ kind: 'imagery', satellites: ['s2'] }, [landsat, s2]), ['view:sun_elevation', 'gsd']);
  assert.deepEqual(offeredQueryables({ kind: 'archive', satellites: [] }, [landsat, s2]), ['view:off_nadir', 'view:sun_elevation', 'gsd']);
});

test('the imagery search sends every filter with both integer bounds (lens.Filter), an open side filled from the range', () => {
  const body = imagerySearchBody(
    {
      ...params,
      filters: [
        { id: 'view:off_nadir', max: 10 },
        { id: 'view:sun_elevation', min: 30 },
      ],
    },
    [landsat],
  );
  assert.deepEqual(body.filters, [
    { id: 'eo:cloud_cover', min: 0, max: 20 },
    { id: 'view:off_nadir', min: 0, max: 10 },
    { id: 'view:sun_elevation', min: 30, max: 90 },
  ]);
  assert.deepEqual(imageryFilters([{ id: 'gsd', min: 5, max: 30 }]), [{ id: 'gsd', min: 5, max: 30 }]);
});

test('the archive search gets the same ranges as STAC query operators, inclusive, beside cloud cover', () => {
  const body = archiveSearchBody({
    ...params,
    kind: 'archive',
    filters: [
      { id: 'view:off_nadir', max: 7.5 },
      { id: 'gsd', min: 10, max: 30 },
    ],
  });
  assert.deepEqual(body.query, { 'view:off_nadir': { lte: 7.5 }, gsd: { gte: 10, lte: 30 }, 'eo:cloud_cover': { lte: 20 } });
  assert.deepEqual(archiveQuery([]), {});
  assert.equal(archiveSearchBody({ ...params, kind: 'archive', maxCloud: undefined }).query, undefined);
});

test('out-of-range, reversed, fractional (imagery), duplicate and unlisted filters are refused in words', () => {
  const offered = ['view:off_nadir', 'view:sun_elevation', 'gsd'];
  assert.equal(filterProblem([{ id: 'view:off_nadir', min: 0, max: 20 }], offered, true), undefined);
  assert.equal(filterProblem([{ id: 'view:off_nadir', max: 120 }], offered, true), 'Off-nadir angle is from 0–90 °; 120 ° is outside it.');
  assert.equal(filterProblem([{ id: 'view:sun_elevation', min: 50, max: 20 }], offered, true), 'Sun elevation: the lowest value is above the highest.');
  assert.match(filterProblem([{ id: 'gsd', max: 7.5 }], offered, true) ?? '', /Ground sample distance takes whole numbers/);
  assert.equal(filterProblem([{ id: 'gsd', max: 7.5 }], offered, false), undefined);
  assert.match(
    filterProblem(
      [
        { id: 'gsd', max: 7 },
        { id: 'gsd', min: 1 },
      ],
      offered,
      false,
    ) ?? '',
    /filtered twice/,
  );
  assert.equal(
    filterProblem([{ id: 'view:off_nadir', max: 10 }], ['view:sun_elevation', 'gsd'], true),
    'This search cannot filter on Off-nadir angle; it can on Sun elevation, Ground sample distance.',
  );
  assert.match(filterProblem([{ id: 'gsd' }], offered, true) ?? '', /needs a lowest or a highest value/);
  assert.match(filterProblem([{ id: 'gsd', min: Number.NaN }], offered, false) ?? '', /takes numbers/);
});
