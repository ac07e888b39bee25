/**
 * A fast path for jsonc-parser's `parseTree` on well-formed files. Validating a 1 MB insight
 * file spent as long in `parseTree` (a scanner and a visitor of callbacks, strings built piece
 * by piece) as in every check together. This reads the text once with `charCodeAt`, builds the
 * very nodes `parseTree` builds (same fields in the same order, same offsets, lengths, values
 * and parents), and gives up, returning undefined, at the first thing that is not plain JSON
 * with comments and trailing commas: the caller then runs `parseTree`, whose error recovery
 * and error list a file being typed needs. Pure.
 */
import type { Node } from 'jsonc-parser';

/** A node while it is built (jsonc-parser's `Node` is read-only). */
type Built = { -readonly [K in keyof Node]: Node[K] };

/** Thrown to leave the fast path; never escapes `fastParseTree`. */
class NotPlain extends Error {}
const notPlain = new NotPlain();

const enum C {
  Tab = 0x09,
  Lf = 0x0a,
  Cr = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Slash = 0x2f,
  Zero = 0x30,
  Nine = 0x39,
  Colon = 0x3a,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
  Star = 0x2a,
  E = 0x45,
  e = 0x65,
}

/**
 * The tree `parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })`
 * returns when `errors` stays empty, or undefined when the text has anything else (a syntax
 * error, a character JSON does not have, arrays and objects nested deeper than `maxDepth`):
 * then the caller must look further.
 */
export function fastParseTree(text: string, maxDepth = Infinity): Node | undefined {
  const n = text.length;
  let pos = 0;
  let depth = 0;

  /** Skips whitespace and comments; returns the next character's code (NaN at the end). */
  function skip(): number {
    for (;;) {
      const ch = text.charCodeAt(pos);
      if (ch === C.Space || ch === C.Lf || ch === C.Cr || ch === C.Tab) pos++;
      else if (ch === C.Slash) {
        const next = text.charCodeAt(pos + 1);
        if (next === C.Slash) {
          pos += 2;
          while (pos < n && !isLineBreak(text.charCodeAt(pos))) pos++;
        } else if (next === C.Star) {
          const end = text.indexOf('*/', pos + 2);
          if (end < 0) throw notPlain;
          pos = end + 2;
        } else throw notPlain;
      } else return ch;
    }
  }

  /** The string starting at `pos` (a quote), decoded; `pos` moves past it. */
  function string(): string {
    const start = pos;
    let escaped = false;
    for (pos++; ; pos++) {
      if (pos >= n) throw notPlain;
      const ch = text.charCodeAt(pos);
      if (ch === C.Quote) break;
      if (ch === C.Backslash) {
        escaped = true;
        pos++;
      } else if (ch < 0x20) throw notPlain;
    }
    pos++;
    if (!escaped) return text.slice(start + 1, pos - 1);
    try {
      // JSON's escapes are the scanner's: \" \\ \/ \b \f \n \r \t \uXXXX.
      return JSON.parse(text.slice(start, pos)) as string;
    } catch {
      throw notPlain;
    }
  }

  function digits(): number {
    const start = pos;
    while (pos < n) {
      const ch = text.charCodeAt(pos);
      if (ch < C.Zero || ch > C.Nine) break;
      pos++;
    }
    if (pos === start) throw notPlain;
    return pos - start;
  }

  /** A JSON number at `pos`: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  function number(): number {
    const start = pos;
    if (text.charCodeAt(pos) === C.Minus) pos++;
    if (text.charCodeAt(pos) === C.Zero) pos++;
    else digits();
    if (text.charCodeAt(pos) === C.Dot) {
      pos++;
      digits();
    }
    const ch = text.charCodeAt(pos);
    if (ch === C.e || ch === C.E) {
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === C.Plus || sign === C.Minus) pos++;
      digits();
    }
    return Number(text.slice(start, pos));
  }

  /** After a literal word or number: the next character must end the token. */
  function endOfToken(): void {
    if (pos >= n) return;
    const ch = text.charCodeAt(pos);
    if (ch !== C.Space && ch !== C.Tab && ch !== C.Lf && ch !== C.Cr && ch !== C.Comma && ch !== C.CloseBracket && ch !== C.CloseBrace && ch !== C.Slash)
      throw notPlain;
  }

  function word(w: string): void {
    if (!text.startsWith(w, pos)) throw notPlain;
    pos += w.length;
    endOfToken();
  }

  function literal(parent: Built | undefined, type: Node['type'], offset: number, value: unknown): Built {
    return { type, offset, length: pos - offset, parent, value } as Built;
  }

  /** The value starting at `pos` (trivia skipped), as a child of `parent`. */
  function value(parent: Built | undefined, ch: number): Built {
    const offset = pos;
    switch (ch) {
      case C.OpenBrace:
        return object(parent);
      case C.OpenBracket:
        return array(parent);
      case C.Quote: {
        const s = string();
        return literal(parent, 'string', offset, s);
      }
      case 0x74 /* t */:
        word('true');
        return literal(parent, 'boolean', offset, true);
      case 0x66 /* f */:
        word('false');
        return literal(parent, 'boolean', offset, false);
      case 0x6e /* n */:
        word('null');
        return literal(parent, 'null', offset, null);
      default: {
        if (ch !== C.Minus && !(ch >= C.Zero && ch <= C.Nine)) throw notPlain;
        const v = number();
        endOfToken();
        return literal(parent, 'number', offset, v);
      }
    }
  }

  function object(parent: Built | undefined): Built {
    if (++depth > maxDepth) throw notPlain;
    const node = { type: 'object', offset: pos, length: -1, parent, children: [] } as Built;
    const children = node.children as Built[];
    pos++;
    let ch = skip();
    while (ch !== C.CloseBrace) {
      if (ch !== C.Quote) throw notPlain;
      const keyOffset = pos;
      const name = string();
      const property = { type: 'property', offset: keyOffset, length: -1, parent: node, children: [] } as Built;
      children.push(property);
      (property.children as Built[]).push({ type: 'string', value: name, offset: keyOffset, length: pos - keyOffset, parent: property } as Built);
      if (skip() !== C.Colon) throw notPlain;
      property.colonOffset = pos;
      pos++;
      const v = value(property, skip());
      (property.children as Built[]).push(v);
      property.length = v.offset + v.length - keyOffset;
      ch = skip();
      if (ch === C.Comma) {
        pos++;
        ch = skip();
      } else if (ch !== C.CloseBrace) throw notPlain;
    }
    pos++;
    node.length = pos - node.offset;
    depth--;
    return node;
  }

  function array(parent: Built | undefined): Built {
    if (++depth > maxDepth) throw notPlain;
    const node = { type: 'array', offset: pos, length: -1, parent, children: [] } as Built;
    const children = node.children as Built[];
    pos++;
    let ch = skip();
    while (ch !== C.CloseBracket) {
      children.push(value(node, ch));
      ch = skip();
      if (ch === C.Comma) {
        pos++;
        ch = skip();
      } else if (ch !== C.CloseBracket) throw notPlain;
    }
    pos++;
    node.length = pos - node.offset;
    depth--;
    return node;
  }

  try {
    const first = skip();
    if (pos >= n) return undefined;
    const root = value(undefined, first);
    skip();
    if (pos < n) return undefined;
    delete root.parent;
    return root as Node;
  } catch (e) {
    if (e === notPlain || e instanceof RangeError) return undefined;
    throw e;
  }
}

function isLineBreak(ch: number): boolean {
  return ch === C.Lf || ch === C.Cr;
}
