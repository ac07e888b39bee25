/**
 * Which footprints are under a map point: the index's candidates near it, then an exact test
 * (inside a polygon and not in its holes, near a line, near a dot), smallest shape first.
 */
import { HOLE, LINE, OUTER, type Store } from './footprintStore';

/**
 * The shapes among `candidates` (all when undefined) under the unit-square point (px, py),
 * smallest first (so a small footprint inside a large one can be picked). `tol` widens lines
 * and dots, `radius` is the dots' own; both in unit-square units.
 */
export function shapesAt(s: Store, candidates: Int32Array | undefined, px: number, py: number, tol: number, radius: number): number[] {
  const ub = s.ub.a;
  const hits: { i: number; area: number }[] = [];
  const count = candidates ? candidates.length : s.count;
  for (let n = 0; n < count; n++) {
    const i = candidates ? candidates[n] : n;
    const bx0 = ub[4 * i],
      by0 = ub[4 * i + 1],
      bx1 = ub[4 * i + 2],
      by1 = ub[4 * i + 3];
    if (py < by0 - tol || py > by1 + tol) continue;
    const kMin = Math.ceil(px - bx1 - tol);
    const kMax = Math.floor(px - bx0 + tol);
    for (let k = kMin; k <= kMax; k++) {
      if (contains(s, i, px - k, py, tol, radius)) {
        hits.push({ i, area: (bx1 - bx0) * (by1 - by0) });
        break;
      }
    }
  }
  return hits.sort((a, b) => a.area - b.area).map((h) => h.i);
}

function contains(s: Store, i: number, x: number, y: number, tol: number, radius: number): boolean {
  const c = s.coords.a;
  const ub = s.ub.a;
  const bx0 = ub[4 * i],
    by0 = ub[4 * i + 1],
    bx1 = ub[4 * i + 2],
    by1 = ub[4 * i + 3];
  // tiny shapes drawn as dots are picked by their box
  if (x >= bx0 - tol && x <= bx1 + tol && y >= by0 - tol && y <= by1 + tol && bx1 - bx0 < tol && by1 - by0 < tol) return true;
  const t2 = tol * tol;
  const pr = radius + tol;
  // a polygon's outer ring, then its holes (until the next outer ring or another kind)
  let inPoly = false;
  for (let p = s.first.a[i]; p < s.end.a[i]; p++) {
    const kind = s.partKind.a[p];
    const a = s.partStart.a[p],
      b = s.partEnd.a[p];
    if (kind !== HOLE && inPoly) return true;
    if (kind === OUTER) inPoly = pointInRing(c, a, b, x, y);
    else if (kind === HOLE) {
      if (inPoly && pointInRing(c, a, b, x, y)) inPoly = false;
    } else if (kind === LINE) {
      for (let j = a; j + 3 < b; j += 2) if (distToSegment2(x, y, c[j], c[j + 1], c[j + 2], c[j + 3]) <= t2) return true;
    } else {
      for (let j = a; j < b; j += 2) {
        const ddx = c[j] - x,
          ddy = c[j + 1] - y;
        if (ddx * ddx + ddy * ddy <= pr * pr) return true;
      }
    }
  }
  return inPoly;
}

function pointInRing(a: Float64Array, start: number, end: number, x: number, y: number): boolean {
  let inside = false;
  for (let i = start, j = end - 2; i < end; j = i, i += 2) {
    const xi = a[i],
      yi = a[i + 1],
      xj = a[j],
      yj = a[j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distToSegment2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const qx = ax + t * dx - px,
    qy = ay + t * dy - py;
  return qx * qx + qy * qy;
}
