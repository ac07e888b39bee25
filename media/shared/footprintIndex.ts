/**
 * Which shapes a box of the unit square may touch: a grid of GRID × GRID cells, columns
 * wrapping around the antimeridian (a shape or a view beyond ±180° lands in the cells of the
 * world copy it repeats). A shape covering many cells sits in one list that every query
 * returns. Built on the first use after the shapes change; a view showing a large part of the
 * world skips it, as the cells would list nearly every shape.
 */
const GRID = 128;
const BIG_CELLS = 64;

export class GridIndex {
  private readonly cellStart = new Int32Array(GRID * GRID + 1);
  private readonly cellItems: Int32Array;
  private readonly big: number[] = [];
  /** Per shape: the query that last listed it (so a query lists a shape once). */
  private readonly stamp: Uint32Array;
  private query = 0;

  constructor(ub: Float64Array, count: number) {
    const counts = this.cellStart;
    for (let i = 0; i < count; i++) if (!this.cells(ub, i, (cell) => counts[cell + 1]++)) this.big.push(i);
    for (let k = 0; k < GRID * GRID; k++) counts[k + 1] += counts[k];
    const next = counts.slice(0, GRID * GRID);
    const items = new Int32Array(counts[GRID * GRID]);
    for (let i = 0; i < count; i++) this.cells(ub, i, (cell) => (items[next[cell]++] = i));
    this.cellItems = items;
    this.stamp = new Uint32Array(count);
  }

  /** Calls `f` for each cell shape `i` covers; false (and no calls) when it covers too many. */
  private cells(ub: Float64Array, i: number, f: (cell: number) => void): boolean {
    const c0 = Math.floor(ub[4 * i] * GRID);
    const cols = Math.min(GRID, Math.floor(ub[4 * i + 2] * GRID) - c0 + 1);
    const r0 = Math.max(0, Math.floor(ub[4 * i + 1] * GRID));
    const r1 = Math.min(GRID - 1, Math.floor(ub[4 * i + 3] * GRID));
    if (cols * (r1 - r0 + 1) > BIG_CELLS) return false;
    for (let c = c0; c < c0 + cols; c++) {
      const col = ((c % GRID) + GRID) % GRID;
      for (let r = r0; r <= r1; r++) f(r * GRID + col);
    }
    return true;
  }

  /**
   * The shapes listed in the cells the box touches, in store order (the order they are drawn
   * in), or undefined when the box covers so much that every shape is a candidate.
   */
  candidates(x0: number, y0: number, x1: number, y1: number): Int32Array | undefined {
    const c0 = Math.floor(x0 * GRID);
    const cols = Math.floor(x1 * GRID) - c0 + 1;
    const r0 = Math.max(0, Math.floor(y0 * GRID));
    const r1 = Math.min(GRID - 1, Math.floor(y1 * GRID));
    if (Math.min(cols, GRID) * Math.max(0, r1 - r0 + 1) > (GRID * GRID) / 4) return undefined;
    if (++this.query === 0xffffffff) {
      this.stamp.fill(0);
      this.query = 1;
    }
    const q = this.query;
    const out: number[] = [];
    for (let c = c0; c < c0 + Math.min(cols, GRID); c++) {
      const col = ((c % GRID) + GRID) % GRID;
      for (let r = r0; r <= r1; r++) {
        const cell = r * GRID + col;
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const i = this.cellItems[k];
          if (this.stamp[i] !== q) {
            this.stamp[i] = q;
            out.push(i);
          }
        }
      }
    }
    for (const i of this.big) out.push(i);
    return Int32Array.from(out).sort();
  }
}
