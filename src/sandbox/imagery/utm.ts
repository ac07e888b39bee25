/**
 * WGS 84 to UTM and back with Krüger's series to third order in n (Karney 2011): millimetre
 * accuracy within a zone and a few zones beyond, which is all the sandbox's scenes need.
 * Pure maths, no I/O; GDAL (through PROJ) is the independent check in the tests.
 */
const A_AXIS = 6378137;
const F = 1 / 298.257223563;
const N = F / (2 - F);
const K0 = 0.9996;
const RECT = (A_AXIS / (1 + N)) * (1 + (N * N) / 4 + N ** 4 / 64);
const ALPHA = [N / 2 - (2 * N * N) / 3 + (5 * N ** 3) / 16, (13 * N * N) / 48 - (3 * N ** 3) / 5, (61 * N ** 3) / 240];
const BETA = [N / 2 - (2 * N * N) / 3 + (37 * N ** 3) / 96, (N * N) / 48 + N ** 3 / 15, (17 * N ** 3) / 480];
const DELTA = [2 * N - (2 * N * N) / 3 - 2 * N ** 3, (7 * N * N) / 3 - (8 * N ** 3) / 5, (56 * N ** 3) / 15];
const E2N = (2 * Math.sqrt(N)) / (1 + N);
const D2R = Math.PI / 180;

export interface UtmZone {
  zone: number;
  south: boolean;
}

/** The zone a longitude falls in (1-60), without the Norway/Svalbard exceptions. */
export function zoneOf(lon: number, lat: number): UtmZone {
  const l = (((lon + 180) % 360) + 360) % 360;
  return { zone: Math.min(60, Math.floor(l / 6) + 1), south: lat < 0 };
}

export function utmEpsg(z: UtmZone): number {
  return (z.south ? 32700 : 32600) + z.zone;
}

function centralMeridian(zone: number): number {
  return (zone - 1) * 6 - 180 + 3;
}

/** [easting, northing] in metres of a lon/lat (degrees) in the given zone. */
export function toUtm(lon: number, lat: number, z: UtmZone): [number, number] {
  let dl = lon - centralMeridian(z.zone);
  dl = ((((dl + 180) % 360) + 360) % 360) - 180;
  const phi = lat * D2R;
  const lam = dl * D2R;
  const s = Math.sin(phi);
  const t = Math.sinh(Math.atanh(s) - E2N * Math.atanh(E2N * s));
  const xi0 = Math.atan2(t, Math.cos(lam));
  const eta0 = Math.atanh(Math.sin(lam) / Math.sqrt(1 + t * t));
  let xi = xi0;
  let eta = eta0;
  for (let j = 1; j <= 3; j++) {
    xi += ALPHA[j - 1] * Math.sin(2 * j * xi0) * Math.cosh(2 * j * eta0);
    eta += ALPHA[j - 1] * Math.cos(2 * j * xi0) * Math.sinh(2 * j * eta0);
  }
  return [500000 + K0 * RECT * eta, (z.south ? 10000000 : 0) + K0 * RECT * xi];
}

/** [lon, lat] in degrees of a UTM position. */
export function fromUtm(e: number, n: number, z: UtmZone): [number, number] {
  const xi = (n - (z.south ? 10000000 : 0)) / (K0 * RECT);
  const eta = (e - 500000) / (K0 * RECT);
  let xi0 = xi;
  let eta0 = eta;
  for (let j = 1; j <= 3; j++) {
    xi0 -= BETA[j - 1] * Math.sin(2 * j * xi) * Math.cosh(2 * j * eta);
    eta0 -= BETA[j - 1] * Math.cos(2 * j * xi) * Math.sinh(2 * j * eta);
  }
  const chi = Math.asin(Math.sin(xi0) / Math.cosh(eta0));
  let phi = chi;
  for (let j = 1; j <= 3; j++) phi += DELTA[j - 1] * Math.sin(2 * j * chi);
  let lon = centralMeridian(z.zone) + Math.atan2(Math.sinh(eta0), Math.cos(xi0)) / D2R;
  lon = ((((lon + 180) % 360) + 360) % 360) - 180;
  return [lon, phi / D2R];
}
