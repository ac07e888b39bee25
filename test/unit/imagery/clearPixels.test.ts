/** Which pixels the default stretch takes: clear ground only, where the file marks clouds. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { clearMaskOf, isClear } from '../../../src/raster/clearPixels';
import { type ClearSamples, clearValues, percentileRange } from '../../../media/map/imagery/stretch';

const percentiles = (values: Uint16Array, clear?: ClearSamples) => percentileRange(clearValues({ parts: [values], scale: 1, offset: 0, clear }), 2, 98);

describe('clear pixels', () => {
  it('finds a scene classification band first, else a cloud mask, by name in any case', () => {
    assert.deepEqual(clearMaskOf(['B02', 'B03', 'B04', 'SCL']), { band: 3, kind: 'scl' });
    assert.deepEqual(clearMaskOf(['B02', 'CLM', 'scl']), { band: 2, kind: 'scl' });
    assert.deepEqual(clearMaskOf(['B02', 'cloud_mask']), { band: 1, kind: 'cloudMask' });
    assert.equal(clearMaskOf(['B02', 'B03', 'B04']), undefined);
  });

  it('reads SCL as Sentinel-2 L2A does: no data, saturated, shadow, cloud and cirrus are not clear', () => {
    assert.deepEqual(
      Array.from({ length: 12 }, (_, c) => c).filter((c) => isClear('scl', c)),
      [2, 4, 5, 6, 7, 11],
    );
    assert.equal(isClear('cloudMask', 0), true);
    assert.equal(isClear('cloudMask', 1), false);
  });

  it('stretches over the clear pixels, and over every valid one when none is clear', () => {
    // 90 pixels of ground 100..189, 10 of bright cloud (5000)
    const values = Uint16Array.from({ length: 100 }, (_, i) => (i < 90 ? 100 + i : 5000));
    const scl = Uint8Array.from({ length: 100 }, (_, i) => (i < 90 ? 4 : 9));
    assert.deepEqual(percentiles(values), [102, 5000], 'every pixel: the clouds set the top');
    assert.deepEqual(percentiles(values, { kind: 'scl', parts: [scl] }), [102, 187]);
    const allCloud = new Uint8Array(100).fill(9);
    assert.deepEqual(percentiles(values, { kind: 'scl', parts: [allCloud] }), [102, 5000]);
  });
});
