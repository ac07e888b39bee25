/** The band and stretch controls' state: what is offered, and what each input becomes. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { bandControlsState, CUSTOM, customLook, modeLook, percentileLook, presetLook, stretchLook } from '../../../media/map/imagery/bandState';
import type { ImageryBand } from '../../../src/panels/imagery/protocol';

const S2: ImageryBand[] = [
  { name: 'B02', commonName: 'blue', wavelength: 0.49 },
  { name: 'B03', commonName: 'green', wavelength: 0.56 },
  { name: 'B04', commonName: 'red', wavelength: 0.665 },
  { name: 'B08', commonName: 'nir', wavelength: 0.842 },
];

describe('band controls state', () => {
  it('offers the presets, selects the drawn combination, and shows the stretch rounded', () => {
    const s = bandControlsState(S2, { kind: 'rgb', bands: ['B04', 'B03', 'B02'] }, [
      [0.0123456, 0.3],
      [120.4, 900.6],
      [0, 1],
    ]);
    assert.equal(s.selected, 'B04|B03|B02');
    assert.deepEqual(
      s.options.slice(0, 2).map((o) => o.value),
      ['B04|B03|B02', 'B08|B04|B03'],
    );
    assert.equal(s.options.at(-1)?.value, CUSTOM);
    assert.ok(!s.options.some((o) => o.label.startsWith('Bands ')), 'a preset is not offered twice');
    assert.deepEqual(s.stretch, [
      [0.0123, 0.3],
      [120, 901],
      [0, 1],
    ]);
    assert.equal(s.percentiles, '2-98');
    assert.equal(s.hint, '');
    assert.deepEqual(s.bands[2], { value: 'B04', label: 'B04 (red, 665 nm)' });
  });

  it('names a combination that is no preset, defaults an unnamed one, and says how to filter many bands', () => {
    const odd = bandControlsState(S2, { kind: 'rgb', bands: ['B08', 'B02', 'B02'], percentiles: [1, 99] }, undefined);
    assert.equal(odd.options.at(-2)?.label, 'Bands B08, B02, B02');
    assert.equal(odd.percentiles, '1-99');
    assert.deepEqual(odd.stretch, [undefined, undefined, undefined]);
    assert.deepEqual(bandControlsState(S2, { kind: 'rgb', bands: ['', '', ''] }, undefined).chosen, ['B04', 'B03', 'B02']);
    const many = Array.from({ length: 40 }, (_, i): ImageryBand => ({ name: `b${i + 1}` }));
    assert.match(bandControlsState(many, { kind: 'rgb', bands: ['', '', ''] }, undefined).hint, /40 bands: type a name/);
  });

  it('turns each input into a look, or a hint saying what is wrong', () => {
    const render = { kind: 'rgb' as const, bands: ['B04', 'B03', 'B02'] as [string, string, string], percentiles: [1, 99] as [number, number] };
    assert.deepEqual(presetLook('B08|B04|B03', render), { kind: 'rgb', bands: ['B08', 'B04', 'B03'], percentiles: [1, 99] });
    assert.deepEqual(customLook([' B08', 'B04 ', 'B02'], S2, render), { render: { kind: 'rgb', bands: ['B08', 'B04', 'B02'], percentiles: [1, 99] } });
    assert.deepEqual(customLook(['B08', 'B99', 'B02'], S2, render), { hint: 'No band named "B99".' });
    assert.deepEqual(customLook(['B08', ' ', 'B02'], S2, render), { hint: 'Name a band for each channel.' });
    assert.deepEqual(
      stretchLook(
        [
          ['0', '0.3'],
          ['0', '0.3'],
          ['0', '0.25'],
        ],
        render,
        render.bands,
      ),
      {
        render: {
          ...render,
          stretch: [
            [0, 0.3],
            [0, 0.3],
            [0, 0.25],
          ],
        },
      },
    );
    assert.deepEqual(
      stretchLook(
        [
          ['0', '0.3'],
          ['0.5', '0.3'],
          ['0', 'x'],
        ],
        render,
        render.bands,
      ),
      { hint: 'Each maximum must be a number above its minimum.' },
    );
    assert.deepEqual(percentileLook(' 5 – 95 ', render, render.bands), { render: { kind: 'rgb', bands: render.bands, percentiles: [5, 95] } });
    assert.deepEqual(percentileLook('95-5', render, render.bands), { hint: 'Percentiles: two numbers from 0 to 100, e.g. 2-98.' });
    assert.deepEqual(percentileLook('2-101', render, render.bands), { hint: 'Percentiles: two numbers from 0 to 100, e.g. 2-98.' });
  });

  it('stretches the three bands as one by default, and per band as a choice that the other inputs keep', () => {
    const linked = { kind: 'rgb' as const, bands: ['B04', 'B03', 'B02'] as [string, string, string] };
    const s = bandControlsState(S2, linked, [
      [0.02, 0.24],
      [0.02, 0.24],
      [0.02, 0.24],
    ]);
    assert.equal(s.mode, 'linked');
    assert.deepEqual(
      s.modes.map((m) => m.value),
      ['linked', 'perBand'],
    );
    // one pair typed: the same range for the three channels
    assert.deepEqual(stretchLook([['0', '0.3']], linked, linked.bands), {
      render: {
        ...linked,
        stretch: [
          [0, 0.3],
          [0, 0.3],
          [0, 0.3],
        ],
      },
    });
    const perBand = modeLook('perBand', linked, linked.bands);
    assert.deepEqual(perBand, { kind: 'rgb', bands: ['B04', 'B03', 'B02'], perBand: true });
    assert.equal(bandControlsState(S2, perBand, undefined).mode, 'perBand');
    assert.deepEqual(presetLook('B08|B04|B03', perBand), { kind: 'rgb', bands: ['B08', 'B04', 'B03'], perBand: true });
    assert.deepEqual(percentileLook('5-95', perBand, perBand.bands), { render: { kind: 'rgb', bands: perBand.bands, perBand: true, percentiles: [5, 95] } });
    // back to linked: the automatic stretch again, the fixed ranges dropped
    assert.deepEqual(
      modeLook(
        'linked',
        {
          ...perBand,
          stretch: [
            [0, 1],
            [0, 2],
            [0, 3],
          ],
          percentiles: [1, 99],
        },
        perBand.bands,
      ),
      {
        kind: 'rgb',
        bands: ['B04', 'B03', 'B02'],
        percentiles: [1, 99],
      },
    );
    // an old view's fixed ranges that differ by channel are shown per band
    assert.equal(
      bandControlsState(
        S2,
        {
          ...linked,
          stretch: [
            [0, 1],
            [0, 2],
            [0, 1],
          ],
        },
        undefined,
      ).mode,
      'perBand',
    );
  });
});
