/**
 * HTTP `Range: bytes=...` (RFC 9110 §14): parsing into absolute [start, end) spans, and the
 * multipart/byteranges framing for several of them. Pure.
 */

export interface Span {
  start: number;
  /** exclusive */
  end: number;
}

/** Most ranges one request may ask for (after merging); more is refused with 416. */
export const MAX_RANGES = 64;

export type RangeAnswer = { kind: 'whole' } | { kind: 'unsatisfiable' } | { kind: 'partial'; spans: Span[] };

/**
 * What to send for a `Range` header over a representation of `size` bytes. A header that is
 * not a valid bytes range is ignored (the whole file), as the RFC says; ranges that all start
 * past the end are unsatisfiable; overlapping or adjacent ranges are merged.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return { kind: 'whole' };
  const spans: Span[] = [];
  for (const part of m[1].split(',')) {
    const p = part.trim();
    if (p === '') continue;
    const r = /^(\d*)\s*-\s*(\d*)$/.exec(p);
    if (!r || (r[1] === '' && r[2] === '')) return { kind: 'whole' };
    if (r[1] === '') {
      const suffix = Number(r[2]);
      if (suffix === 0) continue;
      spans.push({ start: Math.max(0, size - suffix), end: size });
      continue;
    }
    const start = Number(r[1]);
    if (r[2] !== '' && Number(r[2]) < start) return { kind: 'whole' };
    if (start >= size) continue;
    const last = r[2] === '' ? size - 1 : Number(r[2]);
    spans.push({ start, end: Math.min(size, last + 1) });
  }
  if (spans.length === 0) return { kind: 'unsatisfiable' };
  spans.sort((a, b) => a.start - b.start);
  const merged: Span[] = [spans[0]];
  for (const s of spans.slice(1)) {
    const top = merged[merged.length - 1];
    if (s.start <= top.end) top.end = Math.max(top.end, s.end);
    else merged.push({ ...s });
  }
  if (merged.length > MAX_RANGES) return { kind: 'unsatisfiable' };
  return { kind: 'partial', spans: merged };
}

export function contentRange(s: Span, size: number): string {
  return `bytes ${s.start}-${s.end - 1}/${size}`;
}

/** The part header before each span's bytes, and the closing delimiter. */
export function multipartFraming(spans: Span[], size: number, contentType: string, boundary: string): { heads: string[]; tail: string } {
  return {
    heads: spans.map((s, i) => `${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${contentType}\r\nContent-Range: ${contentRange(s, size)}\r\n\r\n`),
    tail: `\r\n--${boundary}--\r\n`,
  };
}
