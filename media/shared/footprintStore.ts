/**
 * The footprints' geometry, packed for drawing and hit testing: each shape projected once to
 * Web Mercator's unit square (zoom-independent) into typed-array columns, so that a hundred
 * thousand footprints are numbers, not objects.
 */
import { drawableBounds, toDrawable, type Drawable } from '../../src/geo/drawable';
import { project } from '../../src/geo/mercator';

export interface FootprintInput<T> {
  id: string;
  geometry: unknown;
  /** Extra dots (e.g. an AOI's centroid), [lon, lat]. */
  extraPoints?: [number, number][];
  data: T;
}

/** Kinds of part in the packed store. */
export const OUTER = 0,
  HOLE = 1,
  LINE = 2,
  POINTS = 3;

type Typed = Float64Array | Int32Array | Uint8Array;

/** A growable typed array: one column of the store. */
export class Column<A extends Typed> {
  length = 0;
  constructor(
    public a: A,
    private readonly make: (n: number) => A,
  ) {}
  reserve(extra: number): void {
    if (this.length + extra <= this.a.length) return;
    const b = this.make(Math.max(this.length + extra, this.a.length * 2, 64));
    b.set(this.a.subarray(0, this.length));
    this.a = b;
  }
  /** Writes `v` at `k`, growing by one when `k` is the length. */
  put(k: number, v: number): void {
    if (k >= this.length) {
      this.reserve(1);
      this.length++;
    }
    this.a[k] = v;
  }
  /** Drops the spare capacity (after a batch of shapes: a hundred thousand leave megabytes). */
  trim(): void {
    if (this.a.length > this.length) this.a = this.a.slice(0, this.length) as A;
  }
}

export const f64 = (n: number) => new Float64Array(n);
const i32 = (n: number) => new Int32Array(n);
const u8 = (n: number) => new Uint8Array(n);

/**
 * Every shape's geometry, packed: unit-square coordinates in one Float64Array, the parts
 * (rings, lines, a shape's dots) as ranges of it, each shape a range of parts, its bounds in
 * columns. As objects (arrays of typed arrays per shape) 100,000 footprints held about 0.6 KB
 * each on the heap; packed they are the numbers themselves.
 */
export class Store {
  readonly coords = new Column(f64(0), f64);
  readonly partKind = new Column(u8(0), u8);
  readonly partStart = new Column(i32(0), i32);
  readonly partEnd = new Column(i32(0), i32);
  /** Per shape: its parts, [first, end). */
  readonly first = new Column(i32(0), i32);
  readonly end = new Column(i32(0), i32);
  /** Per shape: unit-square bounds minX, minY, maxX, maxY. */
  readonly ub = new Column(f64(0), f64);
  /** Per shape: lon/lat bounds (lon unwrapped) west, south, east, north. */
  readonly llb = new Column(f64(0), f64);
  /** Per shape: 1 when it has dots (such a shape is never reduced to a dot). */
  readonly hasPoints = new Column(u8(0), u8);
  /** Coordinates no shape points at any more (shapes replaced by id). */
  private garbage = 0;

  get count(): number {
    return this.first.length;
  }

  /** Writes shape `i` (a new one when `i` is the count). */
  set(i: number, d: Drawable, llb: readonly number[]): void {
    if (i < this.count) this.garbage += this.partEnd.a[this.end.a[i] - 1] - this.partStart.a[this.first.a[i]];
    const p0 = this.partKind.length;
    for (const poly of d.polygons) poly.forEach((ring, k) => this.part(k === 0 ? OUTER : HOLE, ring));
    for (const line of d.lines) this.part(LINE, line);
    if (d.points.length) this.part(POINTS, d.points);
    this.first.put(i, p0);
    this.end.put(i, this.partKind.length);
    this.hasPoints.put(i, d.points.length ? 1 : 0);
    const [x0, y1] = project(llb[0], llb[1]);
    const [x1, y0] = project(llb[2], llb[3]);
    this.ub.put(4 * i, x0);
    this.ub.put(4 * i + 1, y0);
    this.ub.put(4 * i + 2, x1);
    this.ub.put(4 * i + 3, y1);
    for (let k = 0; k < 4; k++) this.llb.put(4 * i + k, llb[k]);
  }

  private part(kind: number, ring: readonly (readonly number[])[]): void {
    this.partKind.put(this.partKind.length, kind);
    this.partStart.put(this.partStart.length, this.coords.length);
    this.coords.reserve(ring.length * 2);
    const a = this.coords.a;
    let n = this.coords.length;
    for (const p of ring) {
      const [x, y] = project(p[0], p[1]);
      a[n++] = x;
      a[n++] = y;
    }
    this.coords.length = n;
    this.partEnd.put(this.partEnd.length, n);
  }

  /** After a batch: drops spare capacity, and the coordinates of replaced shapes once they are the larger part. */
  settle(): void {
    if (this.garbage > this.coords.length / 2) this.compact();
    for (const c of [this.coords, this.partKind, this.partStart, this.partEnd, this.first, this.end, this.ub, this.llb, this.hasPoints]) c.trim();
  }

  private compact(): void {
    const old = { coords: this.coords.a, kind: this.partKind.a, start: this.partStart.a, end: this.partEnd.a };
    this.coords.length = this.partKind.length = this.partStart.length = this.partEnd.length = 0;
    for (let i = 0; i < this.count; i++) {
      const p0 = this.partKind.length;
      for (let p = this.first.a[i]; p < this.end.a[i]; p++) {
        this.partKind.put(this.partKind.length, old.kind[p]);
        this.partStart.put(this.partStart.length, this.coords.length);
        const src = old.coords.subarray(old.start[p], old.end[p]);
        this.coords.reserve(src.length);
        this.coords.a.set(src, this.coords.length);
        this.coords.length += src.length;
        this.partEnd.put(this.partEnd.length, this.coords.length);
      }
      this.first.a[i] = p0;
      this.end.a[i] = this.partKind.length;
    }
    this.garbage = 0;
  }
}

/** `input` as drawable parts and their lon/lat bounds, or undefined when nothing can be drawn. */
export function prepare(input: FootprintInput<unknown>): { d: Drawable; llb: [number, number, number, number] } | undefined {
  const d = toDrawable(input.geometry);
  if (input.extraPoints) {
    // an AOI's centroid comes in [-180, 180] while its unwrapped ring may lie beyond -180 or
    // 180 (Fiji): put each dot on the shape's side of the antimeridian, not a world away
    const shape = drawableBounds(d);
    const mid = shape ? (shape[0] + shape[2]) / 2 : 0;
    for (const [x, y] of input.extraPoints) d.points.push([x + Math.round((mid - x) / 360) * 360, y]);
  }
  const llb = drawableBounds(d);
  return llb ? { d, llb } : undefined;
}
