/**
 * Reading an insight output's file from its storage URL. The token goes only to a URL below
 * the base URL (`EoClient.outputGeoJson` decides and passes the header), never to another
 * host; redirects are not followed, only http(s) is read, and the size is capped. A vector output must be GeoJSON; anything else is refused with the reason.
 */
import { passGate } from './requestGate';
import type { Dispatcher } from 'undici';
import { PrivateTargetRefused } from './privateTargets';
import { undici } from './undici';
import { isObj } from './shape';

export class OutputFileError extends Error {
  override readonly name = 'OutputFileError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface OutputFetchOptions {
  signal?: AbortSignal;
  /** Largest body read, bytes. Default 25 MB. */
  maxBytes?: number;
  timeoutMs?: number;
  /** Request headers (the client's `Authorization` for its own storage). */
  headers?: Record<string, string>;
  /** Reads through it (the client's dispatcher for other hosts, which checks where it connects). */
  dispatcher?: Dispatcher;
}

/** The file behind `url` as text. */
export async function fetchOutputText(url: string, opts: OutputFetchOptions = {}): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutputFileError(`"${url.slice(0, 200)}" is not a URL the editor can read`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new OutputFileError(`the output is stored at a ${parsed.protocol} address, which the editor cannot read; download the run instead`);
  }
  const max = opts.maxBytes ?? 25 * 1024 * 1024;
  const timeout = opts.timeoutMs ?? 60_000;
  await passGate({ method: 'GET', path: `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`, attempt: 1 });
  let res;
  try {
    res = await undici().request(url, {
      method: 'GET',
      headers: opts.headers,
      signal: opts.signal,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      dispatcher: opts.dispatcher,
    });
  } catch (err) {
    if (err instanceof PrivateTargetRefused) throw new OutputFileError(err.message);
    throw new OutputFileError(`could not reach ${parsed.host}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.statusCode >= 400) {
    await res.body.dump().catch(() => undefined);
    const why =
      res.statusCode === 404 || res.statusCode === 410
        ? 'the file is not there (the run may have been deleted, or its outputs expired)'
        : res.statusCode === 403
          ? 'access was refused (the link may have expired)'
          : res.statusCode === 401
            ? 'it needs you to be signed in (sign in again)'
            : 'the storage refused it';
    throw new OutputFileError(`${parsed.host} answered ${res.statusCode}: ${why}`, res.statusCode);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > max) {
      await res.body.dump().catch(() => undefined);
      throw new OutputFileError(`the file is larger than ${Math.round(max / 1024 / 1024)} MB; download the run instead`);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

export interface GeoJsonFeature {
  type: 'Feature';
  id?: string | number;
  geometry: { type: string; coordinates?: unknown; geometries?: unknown[] } | null;
  properties: Record<string, unknown> | null;
}

export interface GeoJsonCollection {
  type: 'FeatureCollection';
  features: GeoJsonFeature[];
}

function checkGeometry(g: unknown, where: string): string | undefined {
  if (g === null) return undefined;
  if (!isObj(g) || typeof g.type !== 'string') return `${where} is not a geometry object`;
  if (!GEOMETRY_TYPES.has(g.type)) return `${where} has type "${String(g.type).slice(0, 40)}", not a GeoJSON geometry type`;
  if (g.type === 'GeometryCollection') {
    if (!Array.isArray(g.geometries)) return `${where}.geometries is not a list`;
    for (const [i, x] of g.geometries.entries()) {
      const e = checkGeometry(x, `${where}.geometries[${i}]`);
      if (e) return e;
    }
    return undefined;
  }
  if (!Array.isArray(g.coordinates)) return `${where}.coordinates is not a list`;
  return undefined;
}

/** Text → a FeatureCollection (a lone Feature or geometry is wrapped), or the reason it is not GeoJSON. */
export function parseGeoJson(text: string): { ok: true; value: GeoJsonCollection } | { ok: false; reason: string } {
  let v: unknown;
  try {
    v = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { ok: false, reason: `it is not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (!isObj(v) || typeof v.type !== 'string') return { ok: false, reason: 'it has no GeoJSON "type"' };
  let features: unknown[];
  if (v.type === 'FeatureCollection') {
    if (!Array.isArray(v.features)) return { ok: false, reason: '"features" is not a list' };
    features = v.features;
  } else if (v.type === 'Feature') {
    features = [v];
  } else if (GEOMETRY_TYPES.has(v.type)) {
    features = [{ type: 'Feature', geometry: v, properties: {} }];
  } else {
    return { ok: false, reason: `its type is "${v.type.slice(0, 40)}", not FeatureCollection, Feature or a geometry` };
  }
  for (const [i, f] of features.entries()) {
    if (!isObj(f) || f.type !== 'Feature') return { ok: false, reason: `features[${i}] is not a Feature` };
    const e = checkGeometry(f.geometry, `features[${i}].geometry`);
    if (e) return { ok: false, reason: e };
    if (f.properties !== undefined && f.properties !== null && !isObj(f.properties)) return { ok: false, reason: `features[${i}].properties is not an object` };
  }
  return { ok: true, value: { type: 'FeatureCollection', features: features as GeoJsonFeature[] } };
}

/** A vector output's file, checked to be GeoJSON. */
export async function fetchOutputGeoJson(url: string, opts: OutputFetchOptions = {}): Promise<GeoJsonCollection> {
  const text = await fetchOutputText(url, opts);
  const parsed = parseGeoJson(text);
  if (!parsed.ok) throw new OutputFileError(`the file is not valid GeoJSON: ${parsed.reason}`);
  return parsed.value;
}
