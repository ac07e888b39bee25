/** The grid-indexed archive search returns exactly what a plain linear scan returns. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ArchiveQuery, linearSearch } from '../../../src/sandbox/archiveSearch';
import { Rng } from '../../../src/sandbox/prng';
import { ALICE_PLACES, BOB_PLACES } from '../../../src/sandbox/world/places';
import { buildWorld } from '../../../src/sandbox/world/world';

describe('archive index', () => {
  it('agrees with a linear scan on 150 random bbox + datetime + cloud queries, antimeridian included', () => {
    const world = buildWorld(42, 4);
    const rng = new Rng(99);
    const places = [...ALICE_PLACES, ...BOB_PLACES];
    let nonEmpty = 0;
    for (let k = 0; k < 150; k++) {
      const p = rng.pick(places);
      const w = p.lon - rng.range(1, 8);
      const lon = w < -180 ? w + 360 : w;
      const east = lon + rng.range(2, 12);
      const lat = Math.max(-85, p.lat - rng.range(1, 6));
      const q: ArchiveQuery = {
        bbox: [lon, lat, east > 180 ? east - 360 : east, Math.min(85, lat + rng.range(2, 10))],
        from: Date.UTC(2019 + rng.int(0, 3), 0, 1),
        to: Date.UTC(2023 + rng.int(0, 2), 0, 1),
        query: { 'eo:cloud_cover': { lt: rng.int(10, 90) } },
        limit: 50,
        offset: 0,
      };
      const a = world.archive.search(q).rows.map((r) => r.id);
      const b = linearSearch(world.rows, q).map((r) => r.id);
      assert.deepEqual(new Set(a), new Set(b), JSON.stringify(q.bbox));
      if (a.length > 0) nonEmpty++;
    }
    assert.ok(nonEmpty > 100, `only ${nonEmpty} queries matched anything`);
  });
});
