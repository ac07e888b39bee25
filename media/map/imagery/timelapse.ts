/**
 * "Export Timelapse…", the webview's half: each date drawn as the time slider draws it (the same
 * layer code, bands, stretch or index and AOI clip; media/map/imagery/imageryLayer.ts
 * `paintBlock`) into a frame of the chosen size over the place, with the AOI's outline and the
 * date burnt in, then handed to the encoder chunk (`timelapse.js`, loaded on first use). A date
 * whose file cannot be read is left out and named in the result; the extension writes the bytes.
 */
import * as l10n from '@vscode/l10n';
import type * as Leaflet from 'leaflet';
import type { Pool } from 'geotiff';
import type { TimeFrame } from '../../../src/panels/imagery/protocol';
import type { FrameEncoder, TimelapseChunk } from '../timelapse/chunk';
import type { ReadBytes } from './byteSource';
import { polygonsOf } from './clip';
import { loadChunk } from './chunkLoader';
import { asReadable } from './cog';
import { createImageryLayer } from './imageryLayer';
import { seriesStretch } from './autoStretch';
import type { Range } from './stretch';
import type { TimelapseRequest, TimelapseResult } from '../../../src/panels/imagery/timelapseMessages';

const BLOCK = 256;

/** A point's Web Mercator pixel at zoom z (Leaflet's and the tiles' own grid). */
export function mercatorPx(lon: number, lat: number, z: number): [number, number] {
  const world = 256 * 2 ** z;
  const s = Math.sin((Math.max(-85.05112878, Math.min(85.05112878, lat)) * Math.PI) / 180);
  return [((lon + 180) / 360) * world, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world];
}

export interface FramePlan {
  /** The zoom (fractional) at which the box fits the frame. */
  z: number;
  /** The frame's top-left map pixel at that zoom. */
  ox: number;
  oy: number;
  width: number;
  height: number;
}

/** The zoom and origin that fit a box ([w, s, e, n]) inside a frame, centred, with a margin. */
export function framePlan(bbox: [number, number, number, number], width: number, height: number, margin = 0.06): FramePlan {
  const [w, s, e, n] = bbox;
  const [x0, y1] = mercatorPx(w, s, 0);
  const [x1, y0] = mercatorPx(e, n, 0);
  const spanX = Math.max(1e-9, x1 - x0);
  const spanY = Math.max(1e-9, y1 - y0);
  const scale = Math.min((width * (1 - 2 * margin)) / spanX, (height * (1 - 2 * margin)) / spanY);
  const z = Math.min(22, Math.log2(scale));
  const k = 2 ** z;
  return { z, ox: ((x0 + x1) / 2) * k - width / 2, oy: ((y0 + y1) / 2) * k - height / 2, width, height };
}

export interface TimelapseDeps {
  L: typeof Leaflet;
  map: Leaflet.Map;
  read: ReadBytes;
  pool?: Pool;
  /** The time slider's dates, when the request names none. */
  sliderFrames(): TimeFrame[] | undefined;
  /** The encoder chunk (tests hand their own loader the same chunk). */
  encoders?(): Promise<TimelapseChunk>;
}

/** The polygon's rings as a canvas path in frame pixels. */
function tracePolygon(ctx: CanvasRenderingContext2D, geometry: unknown, plan: FramePlan): boolean {
  const polys = polygonsOf(geometry);
  if (!polys.length) return false;
  ctx.beginPath();
  for (const poly of polys) {
    for (const ring of poly) {
      ring.forEach(([lon, lat], i) => {
        const [x, y] = mercatorPx(lon, lat, plan.z);
        if (i === 0) ctx.moveTo(x - plan.ox, y - plan.oy);
        else ctx.lineTo(x - plan.ox, y - plan.oy);
      });
      ctx.closePath();
    }
  }
  return true;
}

function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error(l10n.t('The frames cannot be drawn (no 2D canvas).'));
  return ctx;
}

/**
 * One date's imagery over the frame, clipped as the time slider clips it, in the stretch the
 * dates share; false when none falls in it.
 */
async function paintDate(
  frame: TimeFrame,
  plan: FramePlan,
  layerCanvas: HTMLCanvasElement,
  deps: TimelapseDeps,
  signal: AbortSignal,
  sharedStretch: Promise<Range[] | undefined>,
): Promise<boolean> {
  const layer = createImageryLayer(
    { ...frame.spec, opacity: 1 },
    { L: deps.L, read: deps.read, pool: deps.pool, pane: 'eo-imagery', onStatus: () => undefined, onFirstPixels: () => undefined, sharedStretch },
  );
  if (typeof layer.paintBlock !== 'function') throw new Error(l10n.t('This layer is a picture, not a file the timelapse can draw.'));
  const stop = () => layer.cancel();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await layer.ready;
    await layer.lookReady();
    const ctx = context(layerCanvas);
    ctx.clearRect(0, 0, plan.width, plan.height);
    const blocks: Promise<boolean>[] = [];
    for (let by = 0; by < plan.height; by += BLOCK) {
      for (let bx = 0; bx < plan.width; bx += BLOCK) {
        blocks.push(
          layer.paintBlock(plan.z, plan.ox + bx, plan.oy + by, new ImageData(BLOCK, BLOCK)).then((img) => {
            if (img) ctx.putImageData(img, bx, by);
            return !!img;
          }),
        );
      }
    }
    const drawn = (await Promise.all(blocks)).some(Boolean);
    if (signal.aborted) throw Object.assign(new Error('Cancelled.'), { name: 'AbortError' });
    if (drawn && frame.spec.clip && tracePolygon(ctx, frame.spec.clip, plan)) {
      ctx.save();
      ctx.globalCompositeOperation = 'destination-in';
      ctx.fillStyle = '#000';
      ctx.fill('evenodd');
      ctx.restore();
    }
    return drawn;
  } finally {
    signal.removeEventListener('abort', stop);
    layer.cancel();
  }
}

/** The outline and the label over a frame: the AOI in yellow on a dark halo, the date bottom left. */
function decorate(ctx: CanvasRenderingContext2D, plan: FramePlan, outline: unknown, date: string, title: string): void {
  const unit = Math.max(1, Math.min(plan.width, plan.height) / 360);
  if (outline && tracePolygon(ctx, outline, plan)) {
    ctx.lineJoin = 'round';
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.7)';
    ctx.lineWidth = 4 * unit;
    ctx.stroke();
    ctx.strokeStyle = '#ffd400';
    ctx.lineWidth = 2 * unit;
    ctx.stroke();
  }
  const size = Math.round(16 * unit);
  const pad = Math.round(6 * unit);
  ctx.font = `600 ${size}px system-ui, -apple-system, "Segoe UI", sans-serif`;
  ctx.textBaseline = 'alphabetic';
  const small = Math.round(11 * unit);
  const place = title.length > 60 ? `${title.slice(0, 59)}…` : title;
  const dateWidth = ctx.measureText(date).width;
  ctx.font = `${small}px system-ui, -apple-system, "Segoe UI", sans-serif`;
  const placeWidth = ctx.measureText(place).width;
  const boxW = Math.max(dateWidth, placeWidth) + 2 * pad;
  const boxH = size + small + 3 * pad;
  ctx.fillStyle = 'rgba(0, 0, 0, 0.65)';
  ctx.fillRect(pad, plan.height - boxH - pad, boxW, boxH);
  ctx.fillStyle = '#ffffff';
  ctx.fillText(place, 2 * pad, plan.height - 2 * pad - size);
  ctx.font = `600 ${size}px system-ui, -apple-system, "Segoe UI", sans-serif`;
  ctx.fillText(date, 2 * pad, plan.height - 2 * pad);
}

/** Draws every date and encodes the frames; `onProgress` hears each date as it is done. */
export async function renderTimelapse(
  request: TimelapseRequest,
  deps: TimelapseDeps,
  signal: AbortSignal,
  onProgress: (done: number, total: number, date: string) => void,
): Promise<TimelapseResult> {
  const frames = [...(request.frames ?? deps.sliderFrames() ?? [])].sort((a, b) => a.date.localeCompare(b.date));
  if (frames.length < 2) throw new Error(l10n.t('A timelapse needs two dates or more; open the time slider on a place first.'));
  const { width, height, fps } = request;
  const b = deps.map.getBounds();
  const bbox = request.bbox ?? [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
  const plan = framePlan(bbox, width, height, request.bbox ? 0.06 : 0);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const layerCanvas = document.createElement('canvas');
  layerCanvas.width = width;
  layerCanvas.height = height;
  const ctx = context(canvas);
  const chunk = await (deps.encoders?.() ?? loadChunk<TimelapseChunk>('timelapse.js', '__eoTimelapseChunk', 'timelapse encoder'));
  const encoder: FrameEncoder = await chunk.encoder(request.format, canvas, fps);
  // one stretch for every date, as the time slider draws them
  const sharedStretch = seriesStretch(
    frames.map((f) => f.spec),
    deps.read,
    deps.pool,
    signal,
  );
  const dates: string[] = [];
  const skipped: TimelapseResult['skipped'] = [];
  try {
    for (const [i, frame] of frames.entries()) {
      if (signal.aborted) throw Object.assign(new Error('Cancelled.'), { name: 'AbortError' });
      let drawn = false;
      try {
        drawn = await paintDate(frame, plan, layerCanvas, deps, signal, sharedStretch);
        if (!drawn) skipped.push({ date: frame.date, error: l10n.t('nothing of it falls in the frame') });
      } catch (e) {
        if (signal.aborted) throw e;
        skipped.push({ date: frame.date, error: asReadable(e, l10n.t('The image could not be drawn')).message });
      }
      if (drawn) {
        // the editor's dark background where the date has no data, so every frame is opaque
        ctx.fillStyle = '#1e1e1e';
        ctx.fillRect(0, 0, width, height);
        ctx.drawImage(layerCanvas, 0, 0);
        decorate(ctx, plan, request.outline ?? frame.spec.clip, frame.date, request.title);
        await encoder.add(canvas);
        dates.push(frame.date);
      }
      onProgress(i + 1, frames.length, frame.date);
    }
    if (!dates.length) throw new Error(l10n.t('No date could be drawn: {0}', skipped[0]?.error ?? ''));
    const { bytes, codec } = await encoder.finish();
    return { bytes, dates, skipped, width, height, fps, ...(codec ? { codec } : {}) };
  } catch (e) {
    encoder.cancel();
    throw e;
  }
}
