/** How deep a JSON (or JSONC) text nests, found without parsing it. Pure. */

/**
 * Offset of the first bracket opened deeper than `limit` (strings and comments skipped), or
 * undefined. A linear scan that runs before any parser: parsers (and anything walking their
 * result) recurse once per level, so a text nested thousands deep must be refused unparsed.
 * Comments are skipped as JSONC has them; in plain JSON they are syntax errors anyway.
 */
export function firstTooDeep(text: string, limit: number): number | undefined {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c /* \ */) i++;
        else if (c === 0x22 || c === 0x0a) break;
      }
    } else if (ch === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (ch === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 1;
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > limit) return i;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
      if (depth > 0) depth--;
    }
  }
  return undefined;
}
