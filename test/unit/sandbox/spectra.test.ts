/**
 * The sandbox's synthetic spectra have the textbook shapes the spectral chart is checked
 * against: vegetation with low red and a steep red edge to a bright near infrared, water dark
 * and darkest in the near infrared, bare soil rising gently with wavelength. Read from what an
 * EnMAP item's data COG holds (224 bands), pixel by pixel.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Scene, pixelTruth } from '../../../src/sandbox/imagery/scene';
import { itemScene } from '../../../src/sandbox/imagery/scenes';
import { COLLECTION_DEFS, generateArchive } from '../../../src/sandbox/world/archive';

const row = generateArchive(42, 1).find((r) => COLLECTION_DEFS[r.c].id === 'enmap-l2a' && r.cloud < 10);

function spectraOf(s: Scene, cover: string, n: number): number[][] {
  const out: number[][] = [];
  for (let k = 1; k < 40000 && out.length < n; k++) {
    const t = pixelTruth(s, (k * 7919) % s.width, (k * 104729 + 13) % s.height);
    if (t.cover === cover) out.push(t.value as number[]);
  }
  assert.ok(out.length > 0, `the scene has ${cover} pixels`);
  return out;
}

/** The value at the band nearest a wavelength (nm). */
const at = (s: Scene, v: number[], nm: number): number => {
  let best = 0;
  s.bands.forEach((b, i) => {
    if (Math.abs(b.wavelength - nm) < Math.abs(s.bands[best].wavelength - nm)) best = i;
  });
  return v[best];
};

/** Where the value rises most steeply between neighbouring bands, over a wavelength range. */
function steepest(s: Scene, v: number[], from: number, to: number): number {
  let best = -Infinity;
  let where = NaN;
  for (let i = 1; i < s.bands.length; i++) {
    const [a, b] = [s.bands[i - 1].wavelength, s.bands[i].wavelength];
    if (a < from || b > to) continue;
    const slope = (v[i] - v[i - 1]) / (b - a);
    if (slope > best) {
      best = slope;
      where = (a + b) / 2;
    }
  }
  return where;
}

describe('sandbox spectra', () => {
  const s = itemScene(row!);

  it('an EnMAP item holds 224 bands from about 420 to 2450 nm', () => {
    assert.equal(s.bands.length, 224);
    assert.ok(s.bands[0].wavelength < 430 && s.bands[223].wavelength > 2400);
  });

  it('vegetation and forest: low red, a red edge between 680 and 760 nm, a bright near-infrared plateau', () => {
    for (const cover of ['forest', 'vegetation']) {
      // a vegetation pixel mixes in soil by its greenness: its greenest pixel shows the full edge
      const v = spectraOf(s, cover, 40).sort((a, b) => at(s, b, 800) / at(s, b, 670) - at(s, a, 800) / at(s, a, 670))[0];
      assert.ok(at(s, v, 800) > 4 * at(s, v, 670), `${cover}: NIR ${at(s, v, 800)} vs red ${at(s, v, 670)}`);
      assert.ok(at(s, v, 550) > at(s, v, 670), `${cover}: the green peak`);
      const edge = steepest(s, v, 450, 1000);
      assert.ok(edge > 680 && edge < 760, `${cover}: steepest rise at ${edge} nm`);
    }
  });

  it('water: dark, darkest in the near infrared', () => {
    for (const v of spectraOf(s, 'water', 10)) {
      assert.ok(at(s, v, 865) < at(s, v, 665) && at(s, v, 665) < at(s, v, 560), 'falls from green to red to NIR');
      assert.ok(at(s, v, 865) < 0.02 && Math.max(...v) < 0.1, 'dark everywhere');
    }
  });

  it('bare soil: rising gently from the blue to the near infrared, no edge', () => {
    for (const v of spectraOf(s, 'soil', 10)) {
      assert.ok(at(s, v, 1000) > at(s, v, 700) && at(s, v, 700) > at(s, v, 450), 'rises');
      for (let i = 1; i < s.bands.length; i++) {
        if (s.bands[i].wavelength > 1300) break;
        const slope = (v[i] - v[i - 1]) / (s.bands[i].wavelength - s.bands[i - 1].wavelength);
        assert.ok(slope > -1e-4 && slope < 1e-3, `gentle at ${s.bands[i].wavelength} nm: ${slope} per nm`);
      }
    }
  });
});
