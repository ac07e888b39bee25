/**
 * Serving a COG by HTTP ranges: the layout of each file is computed once and kept; tiles are
 * synthesized when a range touches them and kept in a bounded LRU, so a reader that fetches
 * a tile's bytes in several requests (GDAL reads a leader, then data, then a trailer) pays for
 * the tile once.
 *
 * The tiles a range read asks for whole are made before it is answered, one tile at a time
 * across the sandbox in the order asked, each once however many reads wait for it: a map
 * that asks for a dozen tiles at once gets the first after one tile's work, not all of them
 * after a dozen tiles' work shared out a strip at a time.
 */
import { type CogLayout, type CogSpec, byteChunks, cogLayout, tileSteps, tilesWithin } from './cogWriter';
import { pacer } from '../pace';
import { contentRange, multipartFraming, parseRange } from './ranges';
import { TileCache } from './tileCache';
import type { Res } from '../router';
import { HttpError } from '../errors';

export const tileCache = new TileCache(96 * 1024 * 1024);
const layouts = new Map<string, CogLayout>();

export function layoutFor(key: string, spec: () => CogSpec): CogLayout {
  let l = layouts.get(key);
  if (!l) {
    l = cogLayout(spec());
    if (layouts.size >= 128) layouts.delete(layouts.keys().next().value as string);
    layouts.set(key, l);
  }
  return l;
}

/** Most bytes of tiles one read has made before it is answered; a larger read is computed as it streams. */
const MADE_AHEAD_BYTES = 24 * 1024 * 1024;
/** Tiles being made, by cache key, and the end of the line of tiles to make. */
const making = new Map<string, Promise<void>>();
let lastInLine: Promise<void> = Promise.resolve();

/** Makes a tile into the cache after the tiles asked for before it (at once when kept already). */
function madeTile(key: string, layout: CogLayout, level: number, tx: number, ty: number): Promise<void> {
  const k = `${key}:${level}:${tx}:${ty}`;
  let p = making.get(k);
  if (p) return p;
  if (tileCache.get(k)) return Promise.resolve();
  p = lastInLine.then(async () => {
    const turn = pacer();
    const steps = tileSteps(layout, level, tx, ty);
    for (let r = steps.next(); ; r = steps.next()) {
      if (r.done) {
        tileCache.put(k, r.value);
        return;
      }
      await turn();
    }
  });
  const settled = p.then(
    () => making.delete(k),
    () => making.delete(k),
  );
  lastInLine = settled.then(() => undefined);
  making.set(k, p);
  return p;
}

/** Makes the tiles `spans` ask for whole, when they fit the bound; the bytes are then sent from the cache. */
async function madeAhead(key: string, layout: CogLayout, spans: readonly { start: number; end: number }[]): Promise<void> {
  const tiles = spans.flatMap((s) => tilesWithin(layout, s.start, s.end));
  if (tiles.length === 0 || tiles.length * layout.tileBytes > MADE_AHEAD_BYTES) return;
  await Promise.all(tiles.map((t) => madeTile(key, layout, t.level, t.tx, t.ty)));
}

export function cachedChunks(key: string, layout: CogLayout, start: number, end: number): Iterable<Buffer> {
  return byteChunks(layout, start, end, {
    get: (lv, x, y) => tileCache.get(`${key}:${lv}:${x}:${y}`),
    put: (lv, x, y, bytes) => tileCache.put(`${key}:${lv}:${x}:${y}`, bytes),
  });
}

const TIFF = 'image/tiff; application=geotiff; profile=cloud-optimized';

/** The response for a GET/HEAD of a COG with an optional `Range` header. */
export async function serveCog(key: string, layout: CogLayout, range: string | undefined): Promise<Res> {
  const size = layout.size;
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    etag: `"${key.replace(/[^A-Za-z0-9_.:/-]/g, '_')}:${size}"`,
    'cache-control': 'private, max-age=3600',
  };
  const answer = parseRange(range, size);
  if (answer.kind === 'unsatisfiable') {
    throw new HttpError(416, `range ${JSON.stringify(range?.slice(0, 100))} is outside the file's ${size} bytes or asks for too many parts`, 'range', {
      'content-range': `bytes */${size}`,
      'accept-ranges': 'bytes',
    });
  }
  if (answer.kind === 'whole') {
    return { status: 200, contentType: TIFF, headers, stream: { length: size, chunks: () => cachedChunks(key, layout, 0, size) } };
  }
  const { spans } = answer;
  await madeAhead(key, layout, spans);
  if (spans.length === 1) {
    const [s] = spans;
    return {
      status: 206,
      contentType: TIFF,
      headers: { ...headers, 'content-range': contentRange(s, size) },
      stream: { length: s.end - s.start, chunks: () => cachedChunks(key, layout, s.start, s.end) },
    };
  }
  const boundary = `eo-sandbox-${spans.length}-${size.toString(36)}`;
  const { heads, tail } = multipartFraming(spans, size, TIFF, boundary);
  const length = heads.reduce((n, h) => n + Buffer.byteLength(h), 0) + spans.reduce((n, s) => n + s.end - s.start, 0) + Buffer.byteLength(tail);
  return {
    status: 206,
    contentType: `multipart/byteranges; boundary=${boundary}`,
    headers,
    stream: {
      length,
      *chunks() {
        for (let i = 0; i < spans.length; i++) {
          yield Buffer.from(heads[i]);
          yield* cachedChunks(key, layout, spans[i].start, spans[i].end);
        }
        yield Buffer.from(tail);
      },
    },
  };
}
