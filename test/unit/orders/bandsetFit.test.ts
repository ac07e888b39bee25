import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bandset, Satellite } from '../../../src/api/records';
import { bandsetFits, satellitesOf } from '../../../src/orders/bandsetFit';

// Band names and centre wavelengths (nm) as the sensors publish them.
const s2: Satellite = {
  id: 'sentinel-2',
  name: 'Sentinel-2',
  collections: [],
  bands: [
    { name: 'B04', wavelength: 664.6 },
    { name: 'B05', wavelength: 704.1 },
    { name: 'B06', wavelength: 740.5 },
    { name: 'B11', wavelength: 1613.7 },
  ],
};
const pneo: Satellite = {
  id: 'pleiades-neo',
  name: 'Pléiades Neo',
  collections: [],
  bands: [
    { name: 'BLUE', wavelength: 490 },
    { name: 'RED', wavelength: 655 },
    { name: 'NIR', wavelength: 842 },
  ],
};
const bandset = (id: string, bands: Bandset['bands']): Bandset => ({ id, name: id, description: '', captures: 1, bands });

describe('bandsets and satellites', () => {
  it('a bandset fits the satellite whose bands hold all of its bands', () => {
    const rededge = bandset('rededge', [
      { name: 'B05', wavelength: 704.1 },
      { name: 'B06', wavelength: 740.5 },
    ]);
    assert.equal(bandsetFits(rededge, s2), true);
    assert.equal(bandsetFits(rededge, pneo), false);
    assert.deepEqual(
      satellitesOf(rededge, [s2, pneo]).map((s) => s.id),
      ['sentinel-2'],
    );
  });

  it('one band missing, or the same name at another wavelength, does not fit', () => {
    assert.equal(
      bandsetFits(
        bandset('x', [
          { name: 'B05', wavelength: 704.1 },
          { name: 'B12', wavelength: 2202 },
        ]),
        s2,
      ),
      false,
    );
    assert.equal(bandsetFits(bandset('red', [{ name: 'RED', wavelength: 664.6 }]), pneo), false);
    assert.equal(bandsetFits(bandset('red', [{ name: 'RED', wavelength: 655.2 }]), pneo), true, 'rounding is allowed');
  });

  it('an empty bandset fits nothing', () => {
    assert.equal(bandsetFits(bandset('none', []), s2), false);
  });
});
