import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readArchiveQuery } from '../../../src/tools/archiveQuery';
import { Fields, itemRefs } from '../../../src/tools/input';

describe('chat tool input: fields read into typed values, problems named', () => {
  it('names a missing required field and a field of the wrong type', () => {
    const f = new Fields({ name: 3 });
    f.string('project', true);
    f.string('name');
    assert.deepEqual(f.problems, ['Missing field "project".', 'Field "name" must be text.']);
  });

  it('refuses fields the tool does not take, naming each: they change nothing', () => {
    const read = (input: unknown) => {
      const f = new Fields(input);
      return f.done({ items: itemRefs(f, 'items'), project: f.string('project', true) });
    };
    const order = { items: ['sentinel-2-l2a/S2A_1'], project: 'Water resources' };
    assert.equal(read(order).ok, true);
    for (const [field, value] of [
      ['confirmed', true],
      ['dry_run', false],
      ['skipConfirmation', true],
    ] as const) {
      assert.deepEqual(read({ ...order, [field]: value }), {
        ok: false,
        problems: [`Unknown field "${field}": this tool does not take it, and it changes nothing. The fields are "items", "project".`],
      });
    }
    const many = read({ ...order, confirmed: true, dry_run: false });
    assert.ok(!many.ok && /^Unknown fields "confirmed", "dry_run": this tool does not take them/.test(many.problems[0]));
  });

  it('names unknown fields as quoted, bounded data, and reads no field from the prototype', () => {
    const input = JSON.parse(`{"constructor": "x", "__proto__": {"project": "p"}, "${'k'.repeat(5000)}": 1, "x\\n- obey": 2}`) as unknown;
    const f = new Fields(input);
    assert.equal(f.string('constructor'), 'x');
    assert.equal(f.string('project'), undefined, 'a field under __proto__ is not a field');
    assert.equal(f.string('toString'), undefined, 'an inherited property is not a field');
    const out = f.done({});
    assert.ok(!out.ok);
    assert.equal(out.problems.length, 1);
    const [problem] = out.problems;
    assert.ok(problem.startsWith(`Unknown fields "__proto__", "${'k'.repeat(60)}…", "x\\n- obey": `), problem);
    assert.ok(!problem.includes('\n') && problem.length < 300, problem);
  });

  it('refuses a non-object input', () => {
    assert.deepEqual(new Fields('hello').done({}), { ok: false, problems: ['The input must be a JSON object.'] });
  });

  it('reads dates strictly, numbers within bounds, pages from 1', () => {
    const f = new Fields({ from: '2025-6-1', maxCloud: 120, page: 0 });
    assert.equal(f.date('from'), undefined);
    assert.equal(f.number('maxCloud', 0, 100), undefined);
    assert.equal(f.page(), 1);
    assert.deepEqual(f.problems, [
      'Field "from" must be a date written YYYY-MM-DD, not "2025-6-1".',
      'Field "maxCloud" must be a number from 0 to 100.',
      'Field "page" must be a number from 1 to 10000.',
    ]);
  });

  it('reads collection/item-id references and names the ones that are not', () => {
    const f = new Fields({ items: ['sentinel-2-l2a/S2A_1', 'nope', '/x'] });
    assert.deepEqual(itemRefs(f, 'items'), [{ collection: 'sentinel-2-l2a', id: 'S2A_1' }]);
    assert.deepEqual(f.problems, ['"nope" in "items" is not collection/item-id.', '"/x" in "items" is not collection/item-id.']);
    const empty = new Fields({ items: [] });
    itemRefs(empty, 'items');
    assert.deepEqual(empty.problems, ['Missing field "items".']);
  });

  it('archive query: exactly one place, dates in order, a bbox south below north', () => {
    assert.deepEqual(readArchiveQuery({}), { ok: false, problems: ['Missing the place: give one of "aoi" (an AOI name), "bbox" or "geometry".'] });
    const both = readArchiveQuery({ aoi: 'Lake Mead', bbox: [0, 0, 1, 1] });
    assert.ok(!both.ok && both.problems.includes('Give only one of "aoi", "bbox" and "geometry".'));
    const flipped = readArchiveQuery({ bbox: [0, 5, 1, 1] });
    assert.ok(!flipped.ok && /south below north/.test(flipped.problems[0]));
    const late = readArchiveQuery({ aoi: 'x', from: '2025-07-01', to: '2025-06-01' });
    assert.ok(!late.ok && late.problems[0] === '"from" (2025-07-01) is after "to" (2025-06-01).');
    const badSort = readArchiveQuery({ aoi: 'x', sort: 'best' });
    assert.ok(!badSort.ok && badSort.problems[0] === 'Field "sort" must be one of "newest", "oldest", "least-cloudy".');
  });

  it('archive query: a GeoJSON Feature holding a polygon is read; a point is refused with the reason', () => {
    const square = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    const ok = readArchiveQuery({ geometry: { type: 'Feature', properties: {}, geometry: square }, maxCloud: 10, collections: 'sentinel-2-l2a' });
    assert.ok(ok.ok);
    assert.deepEqual(ok.value.geometry?.coordinates, square.coordinates);
    assert.deepEqual(ok.value.collections, ['sentinel-2-l2a']);
    assert.equal(ok.value.sort, 'newest');
    const point = readArchiveQuery({ geometry: { type: 'Point', coordinates: [0, 0] } });
    assert.ok(!point.ok && point.problems[0].startsWith('Field "geometry": '));
  });
});
