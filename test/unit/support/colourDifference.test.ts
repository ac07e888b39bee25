/** The colour maths the imagery oracles compare renderings with, against published values. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { deltaE2000, deltaE76, difference, hueAngle, hueDifference, type Lab, srgbToLab } from '../../support/colourDifference';

const near = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a}, expected ${b} ± ${tol}`);

describe('colour difference', () => {
  it('converts sRGB to CIELAB (D65) as the standard tables do', () => {
    const white = srgbToLab([255, 255, 255]);
    near(white[0], 100, 0.01, 'white L*');
    near(white[1], 0, 0.01, 'white a*');
    near(white[2], 0, 0.01, 'white b*');
    const red = srgbToLab([255, 0, 0]);
    near(red[0], 53.24, 0.02, 'red L*');
    near(red[1], 80.09, 0.05, 'red a*');
    near(red[2], 67.2, 0.05, 'red b*');
    const grey = srgbToLab([119, 119, 119]);
    near(grey[0], 50.03, 0.05, 'mid grey L*');
  });

  it('computes CIEDE2000 as Sharma, Wu and Dalal’s test data', () => {
    const pairs: [Lab, Lab, number][] = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.263],
    ];
    for (const [p, q, e] of pairs) near(deltaE2000(p, q), e, 1e-4, `ΔE00 ${JSON.stringify(p)} ${JSON.stringify(q)}`);
    near(deltaE76([50, 0, 0], [53, 4, 0]), 5, 1e-12, 'ΔE76');
  });

  it('measures hue as an angle and its difference the short way round', () => {
    near(hueAngle([50, 10, 10]), 45, 1e-9, 'hue');
    near(hueDifference([50, 10, -1], [50, 10, 1]), (2 * (Math.atan(0.1) * 180)) / Math.PI, 1e-9, 'across 0°');
    near(hueDifference([50, 10, 0], [50, -10, 0]), 180, 1e-9, 'opposite');
  });

  it('averages over pairs, reading hue only where both are coloured', () => {
    const d = difference(
      [
        [120, 140, 60],
        [128, 128, 128],
      ],
      [
        [120, 140, 60],
        [130, 128, 126],
      ],
    );
    assert.equal(d.n, 2);
    assert.equal(d.hued, 1, 'the greys have no hue to compare');
    assert.equal(d.meanHueDifference, 0);
    assert.ok(d.meanDeltaE76 > 0 && d.meanDeltaE2000 > 0);
    assert.throws(() => difference([[0, 0, 0]], []), RangeError);
  });
});
