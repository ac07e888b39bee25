/** The automatic stretch of a colour composite: one range for red, green and blue by default. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { clearValues, evenlySpread, linkedRange, looksLikeReflectance, modeOf, percentileRange, pooled, stretchOf } from '../../../media/map/imagery/stretch';

/** `n` values evenly from `lo` to `hi`. */
const ramp = (n: number, lo: number, hi: number) => Float64Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));

describe('the automatic stretch', () => {
  it('takes nearest-rank percentiles and widens a flat band', () => {
    assert.deepEqual(percentileRange(ramp(101, 0, 100), 2, 98), [2, 98]);
    assert.deepEqual(percentileRange(Float64Array.of(5, 5, 5), 2, 98), [5, 6]);
    assert.deepEqual(percentileRange(Float64Array.of(0.1, 0.1), 2, 98), [0.1, 0.1 + 1e-6]);
    assert.equal(percentileRange(new Float64Array(0), 2, 98), undefined);
  });

  it('links the channels: the lowest low to the highest high, the same range three times', () => {
    assert.deepEqual(
      linkedRange([
        [0.02, 0.24],
        [0.05, 0.19],
        [0.03, 0.15],
      ]),
      [0.02, 0.24],
    );
    // DNs (not reflectance): red 100..500, green 300..700, blue 200..400
    const s = stretchOf([ramp(101, 100, 500), ramp(101, 300, 700), ramp(101, 200, 400)], [0, 100]);
    assert.deepEqual(s, [
      [100, 700],
      [100, 700],
      [100, 700],
    ]);
  });

  it('per band when asked: each channel its own percentiles', () => {
    const s = stretchOf([ramp(101, 100, 500), ramp(101, 300, 700), ramp(101, 200, 400)], [0, 100], 'perBand');
    assert.deepEqual(s, [
      [100, 500],
      [300, 700],
      [200, 400],
    ]);
    assert.deepEqual(stretchOf([new Float64Array(0), ramp(3, 1, 3), ramp(3, 1, 3)], [0, 100], 'perBand')[0], [0, 1]);
  });

  it('of reflectance, leaves out of the percentiles what true colour shows white (clouds where the file marks none)', () => {
    // 80 % ground at 0.02..0.25, 20 % cloud at 0.6..0.9, in every band alike
    const band = () => pooled([ramp(800, 0.02, 0.25), ramp(200, 0.6, 0.9)]);
    const [r] = stretchOf([band(), band(), band()]);
    assert.ok(r[1] <= 0.25 && r[1] > 0.2, `the top is the ground's, not the clouds': ${r[1]}`);
    assert.ok(r[0] < 0.03);
    // nothing but cloud: the clouds' own range, not one white
    const cloud = () => ramp(101, 0.5, 0.9);
    assert.deepEqual(stretchOf([cloud(), cloud(), cloud()], [0, 100])[0], [0.5, 0.9]);
    // counts and kelvin are left as they are
    assert.equal(looksLikeReflectance([0.01, 0.9]), true);
    assert.equal(looksLikeReflectance([100, 3000]), false);
    assert.equal(looksLikeReflectance([250, 310]), false);
  });

  it('leaves out no data, NaN, what the mask calls cloud and saturated pixels', () => {
    const values = Uint16Array.of(0, 100, 200, 300, 65535, 400);
    const scl = Uint8Array.of(4, 4, 4, 9, 4, 4);
    const got = clearValues({ parts: [values], scale: 0.001, offset: -0.1, nodata: 0, clear: { kind: 'scl', parts: [scl] } });
    assert.deepEqual(
      Array.from(got, (v) => Math.round(v * 1000) / 1000),
      [0, 0.1, 0.3],
    );
    // nothing clear: every valid pixel, saturated too
    const none = clearValues({ parts: [values], scale: 1, offset: 0, nodata: 0, clear: { kind: 'scl', parts: [new Uint8Array(6).fill(9)] } });
    assert.deepEqual(Array.from(none), [100, 200, 300, 65535, 400]);
    assert.deepEqual(Array.from(clearValues({ parts: [Float32Array.of(NaN, 1, 2)], scale: 1, offset: 0 })), [1, 2]);
  });

  it('samples at most about `max` values, evenly', () => {
    const big = new Uint16Array(10_000).map((_, i) => 1 + i);
    const got = clearValues({ parts: [big], scale: 1, offset: 0 }, 1000);
    assert.equal(got.length, 1000);
    assert.equal(got[1] - got[0], 10);
  });

  it('spreads a series evenly, first and last included', () => {
    assert.deepEqual(evenlySpread([1, 2, 3], 12), [1, 2, 3]);
    assert.deepEqual(
      evenlySpread(
        Array.from({ length: 26 }, (_, i) => i),
        6,
      ),
      [0, 5, 10, 15, 20, 25],
    );
    assert.deepEqual(evenlySpread([1, 2, 3], 1), [1]);
  });

  it('shows a look per band when it says so or when its fixed ranges differ', () => {
    assert.equal(modeOf({}), 'linked');
    assert.equal(modeOf({ perBand: true }), 'perBand');
    assert.equal(
      modeOf({
        stretch: [
          [0, 1],
          [0, 1],
          [0, 1],
        ],
      }),
      'linked',
    );
    assert.equal(
      modeOf({
        stretch: [
          [0, 1],
          [0, 2],
          [0, 1],
        ],
      }),
      'perBand',
    );
  });
});
