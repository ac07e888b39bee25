/**
 * How far apart two renderings of the same place look: sRGB bytes to CIELAB (D65), the colour
 * distance between them (ΔE76 and CIEDE2000) and the difference of their hues. The imagery
 * oracles (test/webview/trueColour.test.ts) compare our map's pixels with GDAL's and with the
 * scene's own `visual` picture through it. Pure: no I/O.
 */

export type Lab = [number, number, number];
export type Rgb = readonly [number, number, number];

/** An 8-bit sRGB value to linear light (IEC 61966-2-1). */
function linear(v: number): number {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** CIE 1976 L*a*b* of an sRGB colour, D65 white (sRGB's own). */
export function srgbToLab([r, g, b]: Rgb): Lab {
  const R = linear(r);
  const G = linear(g);
  const B = linear(b);
  // sRGB to XYZ, each divided by the D65 white's X, Y, Z
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f(x);
  const fy = f(y);
  const fz = f(z);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

export function deltaE76(p: Lab, q: Lab): number {
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

const deg = (r: number) => (r * 180) / Math.PI;
const rad = (d: number) => (d * Math.PI) / 180;

/** CIEDE2000 (Sharma, Wu and Dalal 2005), with kL = kC = kH = 1. */
export function deltaE2000(p: Lab, q: Lab): number {
  const [L1, a1, b1] = p;
  const [L2, a2, b2] = q;
  const Cab = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cab ** 7 / (Cab ** 7 + 25 ** 7)));
  const ap1 = (1 + G) * a1;
  const ap2 = (1 + G) * a2;
  const C1 = Math.hypot(ap1, b1);
  const C2 = Math.hypot(ap2, b2);
  const h = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (deg(Math.atan2(b, a)) + 360) % 360);
  const h1 = h(b1, ap1);
  const h2 = h(b2, ap2);
  const dL = L2 - L1;
  const dC = C2 - C1;
  let dh = 0;
  if (C1 * C2 !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(C1 * C2) * Math.sin(rad(dh / 2));
  const Lm = (L1 + L2) / 2;
  const Cm = (C1 + C2) / 2;
  let hm = h1 + h2;
  if (C1 * C2 !== 0) {
    if (Math.abs(h1 - h2) <= 180) hm = (h1 + h2) / 2;
    else hm = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  }
  const T = 1 - 0.17 * Math.cos(rad(hm - 30)) + 0.24 * Math.cos(rad(2 * hm)) + 0.32 * Math.cos(rad(3 * hm + 6)) - 0.2 * Math.cos(rad(4 * hm - 63));
  const dTheta = 30 * Math.exp(-(((hm - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lm - 50) ** 2) / Math.sqrt(20 + (Lm - 50) ** 2);
  const SC = 1 + 0.045 * Cm;
  const SH = 1 + 0.015 * Cm * T;
  const RT = -Math.sin(rad(2 * dTheta)) * RC;
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}

/** Chroma C*ab of a Lab colour. */
export function chroma(p: Lab): number {
  return Math.hypot(p[1], p[2]);
}

/** The hue angle h_ab in degrees, 0 to 360. */
export function hueAngle(p: Lab): number {
  return (deg(Math.atan2(p[2], p[1])) + 360) % 360;
}

/** The smaller angle between two hues, 0 to 180 degrees. */
export function hueDifference(p: Lab, q: Lab): number {
  const d = Math.abs(hueAngle(p) - hueAngle(q)) % 360;
  return d > 180 ? 360 - d : d;
}

export interface Difference {
  /** Pairs compared. */
  n: number;
  meanDeltaE76: number;
  meanDeltaE2000: number;
  /** Mean hue difference in degrees over the pairs coloured enough in both to have a hue. */
  meanHueDifference: number;
  /** Pairs counted in the hue difference. */
  hued: number;
}

/**
 * A hue is read only from colours at least this chromatic (C*ab): a grey's hue is noise, and
 * a grey rendered a little warm or cool is not a change of hue anyone sees.
 */
export const MIN_CHROMA = 5;

/** How two renderings of the same pixels (pairs of sRGB colours, in the same order) differ on average. */
export function difference(ours: readonly Rgb[], theirs: readonly Rgb[]): Difference {
  if (ours.length !== theirs.length) throw new RangeError(`${ours.length} colours against ${theirs.length}`);
  let e76 = 0;
  let e00 = 0;
  let hue = 0;
  let hued = 0;
  ours.forEach((c, i) => {
    const p = srgbToLab(c);
    const q = srgbToLab(theirs[i]);
    e76 += deltaE76(p, q);
    e00 += deltaE2000(p, q);
    if (chroma(p) >= MIN_CHROMA && chroma(q) >= MIN_CHROMA) {
      hue += hueDifference(p, q);
      hued++;
    }
  });
  const n = ours.length;
  return { n, meanDeltaE76: n ? e76 / n : 0, meanDeltaE2000: n ? e00 / n : 0, meanHueDifference: hued ? hue / hued : 0, hued };
}
