/**
 * Web Mercator cannot show the poles: latitudes beyond ±85.0511° project to infinity, and
 * Leaflet draws them as spikes or not at all. Shapes are clamped before drawing.
 */

/** atan(sinh(π)) in degrees: the latitude where Web Mercator's square world ends. */
export const MAX_MERCATOR_LAT = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;

export function clampLat(lat: number): number {
  if (lat > MAX_MERCATOR_LAT) return MAX_MERCATOR_LAT;
  if (lat < -MAX_MERCATOR_LAT) return -MAX_MERCATOR_LAT;
  return lat;
}

/** Longitude/latitude to the unit square of Web Mercator (x east, y south), world = [0, 1]. */
export function project(lon: number, lat: number): [number, number] {
  const phi = (clampLat(lat) * Math.PI) / 180;
  return [(lon + 180) / 360, 0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI)];
}
