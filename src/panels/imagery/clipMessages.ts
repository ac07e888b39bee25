/**
 * "Save View to GeoTIFF…/PNG": its messages, one row each, and what they carry. The extension
 * asks which layers the view frames (`clipInfo`), for a clip (`clip`) and cancels it
 * (`clipCancel`); the page answers (`clipReply`: the layers, the clip's bytes, or a plan the
 * host executes, hostClip.ts) and reports progress (`clipProgress`).
 * Host side: clipChannel.ts; page side: media/map/channels/clip.ts.
 */
import { isObj } from '../../api/shape';
import { isCount, isId, isReply, row, type MessageIn } from '../webview/messages';

/** One imagery layer that can be saved, as the current view frames it. */
export interface ClipLayerInfo {
  id: string;
  title: string;
  date?: string;
  /** Every band of the file, in file order. */
  bands: string[];
  /** The bands the layer draws (the default choice). */
  shown: string[];
  /** The view's window at each level of the file, finest first. */
  levels: { level: number; width: number; height: number; pixelSize: number; bytes: number }[];
  /** The level the map draws now. */
  drawnLevel: number;
  /**
   * Only when the layer is clipped to a polygon (an AOI's mosaic) that overlaps the file, so
   * the clip can be that polygon, masked: the polygon's window at each level, finest first.
   */
  aoiLevels?: { level: number; width: number; height: number; pixelSize: number; bytes: number }[];
  epsg: number;
}

/**
 * `host`: the extension can read the file itself; the webview answers a `ClipPlan` when the
 * file is one the host decodes (clipPlan.ts), else the clip's bytes as before.
 */
export type ClipRequest = { format: 'geotiff'; id: string; bands: string[]; level: number; mask: boolean; host?: boolean } | { format: 'png' };

/** One stored tile a host clip reads: its column and row in the level's grid, its plane (band-separate files), its bytes. */
export interface ClipPlanTile {
  tx: number;
  ty: number;
  plane: number;
  offset: number;
  length: number;
}

/**
 * Which tiles of which window of a level of a file the extension host reads and decodes
 * itself (src/panels/imagery/hostClip.ts), as only the webview, which read the file's
 * directories, knows them: the file's tile layout and encoding, the tiles, the bands and
 * their metadata. The host checks every number again before it reads a byte.
 */
export interface TilePlan {
  url: string;
  /** The file's size in bytes, as its reads reported it. */
  fileSize: number;
  level: number;
  /** [x0, y0, x1, y1] in the level's pixels, x1 and y1 exclusive. */
  window: [number, number, number, number];
  tileWidth: number;
  tileHeight: number;
  samplesPerPixel: number;
  /** 1: a tile holds every sample of its pixels; 2: one tile per sample (plane). */
  planar: 1 | 2;
  bitsPerSample: number;
  /** 1 unsigned integer, 2 signed integer, 3 floating point (TIFF SampleFormat). */
  sampleFormat: 1 | 2 | 3;
  /** TIFF Compression: 1 none, 8 or 32946 deflate (what the host inflates with node:zlib). */
  compression: 1 | 8 | 32946;
  /** TIFF Predictor: 1 none, 2 horizontal differencing, 3 floating point. */
  predictor: 1 | 2 | 3;
  /** The samples (0-based bands) saved, in the order saved. */
  samples: number[];
  tiles: ClipPlanTile[];
  nodata?: number;
  /** Per sample of `samples`: its name, and physical value = raw × scale + offset. */
  names: string[];
  scale: number[];
  offset: number[];
}

/**
 * A GeoTIFF clip for the extension host to execute: every tile the window touches, the mask's
 * rings and the output's georeferencing.
 */
export interface ClipPlan extends TilePlan {
  /** The AOI polygon's rings in the level's pixel coordinates: pixels outside become no-data. */
  rings?: [number, number][][];
  epsg: number;
  /** Top-left corner of the window's top-left pixel, in the CRS's units; pixel sizes positive. */
  originX: number;
  originY: number;
  pixelWidth: number;
  pixelHeight: number;
}

export interface ClipResult {
  bytes: ArrayBuffer | Uint8Array;
  width: number;
  height: number;
  /** Bytes read from the file for this clip, and the stored size of the tiles its window touches. */
  fetchedBytes?: number;
  tileBytes?: number;
}

const asked = (m: Record<string, unknown>) => isId(m.requestId);

/** From the extension to the page: each answered by a `clipReply` of the same `requestId`. */
export const CLIP_TO_PAGE = {
  clipInfo: row<{ requestId: number }>(asked),
  clip: row<{ requestId: number; request: ClipRequest }>((m) => asked(m) && isObj(m.request)),
  clipCancel: row<{ requestId: number }>(asked),
};

/** From the page to the extension. */
export const CLIP_FROM_PAGE = {
  clipReply: row<
    | { requestId: number; ok: true; result: { layers: ClipLayerInfo[] } | ClipResult | { plan: ClipPlan } }
    | { requestId: number; ok: false; error: string; cancelled?: boolean }
  >((m) => isReply(m, (r) => isObj(r.result))),
  clipProgress: row<{ requestId: number; done: number; total: number }>((m) => asked(m) && isCount(m.done) && isCount(m.total)),
};

export type ToMapClipMessage = MessageIn<typeof CLIP_TO_PAGE>;
export type FromMapClipMessage = MessageIn<typeof CLIP_FROM_PAGE>;
