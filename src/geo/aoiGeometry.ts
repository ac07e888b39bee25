/**
 * The geometry of a new AOI, taken from GeoJSON text (a file open in the editor) or from a
 * shape drawn on the map. The service takes exactly one Polygon (docs/service-interface.md: closed rings,
 * at least 4 positions, coordinates in range, no self-intersection); anything else is refused
 * here with the reason, before a request is sent.
 */
import type { Polygon, Position } from '../api/records';

export type AoiGeometryResult = { ok: true; polygon: Polygon } | { ok: false; reason: string };

const fail = (reason: string): AoiGeometryResult => ({ ok: false, reason });

/** Parses GeoJSON text: a Polygon, or a Feature / FeatureCollection holding exactly one. */
export function aoiPolygonFromGeoJsonText(text: string): AoiGeometryResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return fail(`The file is not valid JSON (${e instanceof Error ? e.message : String(e)}).`);
  }
  return aoiPolygonFromGeoJson(json);
}

export function aoiPolygonFromGeoJson(json: unknown): AoiGeometryResult {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return fail('The GeoJSON is not an object.');
  const obj = json as { type?: unknown; features?: unknown; geometry?: unknown };
  switch (obj.type) {
    case 'FeatureCollection': {
      if (!Array.isArray(obj.features)) return fail('The FeatureCollection has no "features" array.');
      if (obj.features.length !== 1) {
        return fail(`The FeatureCollection holds ${obj.features.length} features; an AOI needs exactly one.`);
      }
      return aoiPolygonFromGeoJson(obj.features[0]);
    }
    case 'Feature':
      if (!obj.geometry) return fail('The Feature has no geometry.');
      return aoiPolygonFromGeoJson(obj.geometry);
    case 'Polygon':
      return validatePolygon(json as { coordinates?: unknown });
    case 'MultiPolygon':
      return fail('The geometry is a MultiPolygon; an AOI is a single Polygon.');
    case undefined:
      return fail('The GeoJSON has no "type".');
    default:
      return fail(`The geometry is a ${String(obj.type)}; an AOI needs a Polygon.`);
  }
}

export function validatePolygon(g: { coordinates?: unknown }): AoiGeometryResult {
  const rings = g.coordinates;
  if (!Array.isArray(rings) || rings.length === 0) return fail('The Polygon has no rings.');
  const out: Position[][] = [];
  for (let r = 0; r < rings.length; r++) {
    const ring: unknown = rings[r];
    const name = r === 0 ? 'The outer ring' : `Hole ${r}`;
    if (!Array.isArray(ring)) return fail(`${name} is not an array of positions.`);
    if (ring.length < 4) return fail(`${name} has ${ring.length} positions; a ring needs at least 4.`);
    const pos: Position[] = [];
    for (const p of ring as unknown[]) {
      if (!Array.isArray(p) || p.length < 2 || !p.slice(0, 2).every((v) => typeof v === 'number' && Number.isFinite(v))) {
        return fail(`${name} has a position that is not [longitude, latitude].`);
      }
      const [lon, lat] = p as number[];
      if (lon < -180 || lon > 180) return fail(`Longitude ${lon} is outside -180..180.`);
      if (lat < -90 || lat > 90) return fail(`Latitude ${lat} is outside -90..90.`);
      pos.push([lon, lat]);
    }
    const first = pos[0];
    const last = pos[pos.length - 1];
    if (first[0] !== last[0] || first[1] !== last[1]) return fail(`${name} is not closed (its last position differs from its first).`);
    const hit = selfIntersection(pos);
    if (hit) return fail(`${name} intersects itself (edges ${hit[0] + 1} and ${hit[1] + 1}).`);
    out.push(pos);
  }
  return { ok: true, polygon: { type: 'Polygon', coordinates: out } };
}

function orient(a: Position, b: Position, c: Position): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function onSegment(a: Position, b: Position, c: Position): boolean {
  return Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);
}

function segmentsIntersect(p1: Position, p2: Position, p3: Position, p4: Position): boolean {
  const d1 = orient(p3, p4, p1);
  const d2 = orient(p3, p4, p2);
  const d3 = orient(p1, p2, p3);
  const d4 = orient(p1, p2, p4);
  if (d1 !== d2 && d3 !== d4) return true;
  return (
    (d1 === 0 && onSegment(p3, p4, p1)) || (d2 === 0 && onSegment(p3, p4, p2)) || (d3 === 0 && onSegment(p1, p2, p3)) || (d4 === 0 && onSegment(p1, p2, p4))
  );
}

/**
 * The first pair of non-adjacent edges that touch, or undefined. Quadratic, which is fine for
 * hand-drawn or file AOIs (a 2,000-vertex ring takes a few milliseconds).
 */
export function selfIntersection(ring: readonly Position[]): [number, number] | undefined {
  const n = ring.length - 1;
  if (n > 5000) return undefined; // too large to check here; the service still validates
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue; // neighbours share a vertex
      if (segmentsIntersect(ring[i], ring[i + 1], ring[j], ring[j + 1])) return [i, j];
    }
  }
  return undefined;
}
