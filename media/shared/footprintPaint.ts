/**
 * Painting footprints from the packed store: one shape in each world copy the view shows,
 * vertices under half a pixel apart dropped, shapes under two pixels as dots, the dots in one
 * batch (as pixels when there are many). The layer sets the styles and strokes the outlines.
 */
import { Column, f64, HOLE, LINE, OUTER, type Store } from './footprintStore';

/** The view in the unit square and the pixel mapping of one redraw. */
export interface View {
  scale: number;
  ox: number;
  oy: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What a redraw gathers across shapes: every outline, stroked once at the end. */
export interface Batch {
  outlines: Path2D;
  /** The polygons' fill opacity. */
  fillAlpha: number;
  /** Dots to draw: x, y of each square's top-left corner, CSS px. */
  dots: Column<Float64Array>;
}

export function newBatch(fillAlpha: number): Batch {
  return { outlines: new Path2D(), fillAlpha, dots: new Column(f64(0), f64) };
}

/** Above this many dots a redraw writes them as pixels (see DotPainter). */
const MANY_DOTS = 2000;

/**
 * Shape `i` in each world copy the view shows: polygon fills on `fillCtx` (the same canvas, or
 * the one under the imagery) at the batch's opacity, outlines into the batch's path, lines and
 * dots (of `pointRadius` px) on `ctx`, whose styles the caller set. Returns 1 when painted.
 */
export function paintShape(
  s: Store,
  pointRadius: number,
  ctx: CanvasRenderingContext2D,
  fillCtx: CanvasRenderingContext2D,
  i: number,
  v: View,
  batch: Batch,
): number {
  const ub = s.ub.a;
  const bx0 = ub[4 * i],
    by0 = ub[4 * i + 1],
    bx1 = ub[4 * i + 2],
    by1 = ub[4 * i + 3];
  if (by1 < v.y0 || by0 > v.y1) return 0;
  // world copies that intersect the view horizontally
  const kMin = Math.ceil(v.x0 - bx1);
  const kMax = Math.floor(v.x1 - bx0);
  if (kMin > kMax) return 0;
  const scale = v.scale;
  const tiny = (bx1 - bx0) * scale < 2 && (by1 - by0) * scale < 2 && !s.hasPoints.a[i];
  const r = pointRadius;
  for (let k = kMin; k <= kMax; k++) {
    const dx = k * scale - v.ox;
    const dy = -v.oy;
    if (tiny) {
      // smaller than a pixel or two: a dot says as much, for a fraction of the work
      batch.dots.put(batch.dots.length, bx0 * scale + dx - 1);
      batch.dots.put(batch.dots.length, by0 * scale + dy - 1);
      continue;
    }
    let poly: Path2D | undefined;
    let lines = false;
    let dots = false;
    for (let p = s.first.a[i]; p < s.end.a[i]; p++) {
      const kind = s.partKind.a[p];
      const a = s.partStart.a[p],
        b = s.partEnd.a[p];
      if (kind === OUTER || kind === HOLE) {
        poly ??= new Path2D();
        trace(s.coords.a, poly, a, b, scale, dx, dy, true);
        trace(s.coords.a, batch.outlines, a, b, scale, dx, dy, true);
      } else if (kind === LINE) {
        if (!lines) ctx.beginPath();
        lines = true;
        trace(s.coords.a, ctx, a, b, scale, dx, dy, false);
      } else {
        const c = s.coords.a;
        if (lines) ctx.stroke();
        lines = false;
        ctx.beginPath();
        for (let j = a; j < b; j += 2) {
          const x = c[j] * scale + dx,
            y = c[j + 1] * scale + dy;
          ctx.moveTo(x + r, y);
          ctx.arc(x, y, r, 0, Math.PI * 2);
        }
        dots = true;
      }
    }
    if (poly) {
      fillCtx.globalAlpha = batch.fillAlpha;
      fillCtx.fill(poly, 'evenodd');
      fillCtx.globalAlpha = 1;
    }
    if (lines) ctx.stroke();
    if (dots) {
      ctx.globalAlpha = 0.9;
      ctx.fill();
      ctx.globalAlpha = 1;
    }
  }
  return 1;
}

/** Emits coordinates [a, b) of `c`, dropping vertices less than half a pixel from the last one emitted. */
function trace(c: Float64Array, ctx: CanvasRenderingContext2D | Path2D, a: number, b: number, scale: number, dx: number, dy: number, close: boolean): void {
  let lx = c[a] * scale + dx,
    ly = c[a + 1] * scale + dy;
  ctx.moveTo(lx, ly);
  for (let j = a + 2; j < b; j += 2) {
    const x = c[j] * scale + dx,
      y = c[j + 1] * scale + dy;
    if (j < b - 2 && Math.abs(x - lx) < 0.5 && Math.abs(y - ly) < 0.5) continue;
    ctx.lineTo(x, y);
    lx = x;
    ly = y;
  }
  if (close) ctx.closePath();
}

/**
 * The dots (top-left corners of 2 × 2 px squares, in CSS px) in `ctx`'s fill colour. A few
 * are fillRects; many (the whole world at a low zoom: 100,000 fillRects took longer than the
 * rest of the frame) are written into pixels and drawn as one image, snapped to whole pixels.
 */
export class DotPainter {
  /** Where many dots are written as pixels; kept while redraws have many. */
  private scratch?: { canvas: HTMLCanvasElement; cx: CanvasRenderingContext2D; pixels: ImageData };

  draw(ctx: CanvasRenderingContext2D, dots: Column<Float64Array>, w: number, h: number): void {
    const xy = dots.a;
    if (dots.length < 2 * MANY_DOTS) {
      for (let j = 0; j < dots.length; j += 2) ctx.fillRect(xy[j], xy[j + 1], 2, 2);
      if (this.scratch) this.scratch = undefined;
      return;
    }
    if (!this.scratch || this.scratch.canvas.width !== w || this.scratch.canvas.height !== h) {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const cx = canvas.getContext('2d');
      if (!cx) return;
      this.scratch = { canvas, cx, pixels: cx.createImageData(w, h) };
    }
    const { canvas, cx, pixels } = this.scratch;
    const px = new Uint32Array(pixels.data.buffer);
    px.fill(0);
    const color = rgba32(ctx.fillStyle);
    for (let j = 0; j < dots.length; j += 2) {
      const x = Math.round(xy[j]),
        y = Math.round(xy[j + 1]);
      if (x < 0 || y < 0 || x + 1 >= w || y + 1 >= h) continue;
      const k = y * w + x;
      px[k] = px[k + 1] = px[k + w] = px[k + w + 1] = color;
    }
    cx.putImageData(pixels, 0, 0);
    const smooth = ctx.imageSmoothingEnabled;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(canvas, 0, 0, w, h);
    ctx.imageSmoothingEnabled = smooth;
  }
}

/** A canvas colour as the canvas normalizes it ("#rrggbb" or "rgba(r, g, b, a)") in ImageData's byte order, as one 32-bit word. */
function rgba32(style: string | CanvasGradient | CanvasPattern): number {
  const bytes = new Uint8ClampedArray(4);
  if (typeof style === 'string' && style.startsWith('#') && style.length === 7) {
    for (let k = 0; k < 3; k++) bytes[k] = parseInt(style.slice(1 + 2 * k, 3 + 2 * k), 16);
    bytes[3] = 255;
  } else if (typeof style === 'string') {
    const n = style.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0];
    bytes[0] = n[0];
    bytes[1] = n[1];
    bytes[2] = n[2];
    bytes[3] = n.length > 3 ? Math.round(n[3] * 255) : 255;
  }
  return new Uint32Array(bytes.buffer)[0];
}
