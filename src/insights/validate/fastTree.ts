/**
 * A fast path for jsonc-parser's `parseTree` on well-formed files. Validating a 1 MB insight
 * file spent as long in `parseTree` (a scanner and a visitor of callbacks, strings built piece
 * by piece) as in every check together. This reads the text once with `charCodeAt` (the tokens:
 * ./plainJsonScanner.ts), builds the very nodes `parseTree` builds (same fields in the same
 * order, same offsets, lengths, values and parents), and gives up, returning undefined, at the
 * first thing that is not plain JSON with comments and trailing commas: the caller then runs
 * `parseTree`, whose error recovery and error list a file being typed needs. Pure.
 */
import type { Node } from 'jsonc-parser';
import { C, notPlain, PlainJsonScanner } from './plainJsonScanner';

/** A node while it is built (jsonc-parser's `Node` is read-only). */
type Built = { -readonly [K in keyof Node]: Node[K] };

/**
 * The tree `parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })`
 * returns when `errors` stays empty, or undefined when the text has anything else (a syntax
 * error, a character JSON does not have, arrays and objects nested deeper than `maxDepth`):
 * then the caller must look further.
 */
export function fastParseTree(text: string, maxDepth = Infinity): Node | undefined {
  const scanner = new PlainJsonScanner(text);
  try {
    const first = scanner.skip();
    if (scanner.atEnd) return undefined;
    const root = new TreeBuilder(scanner, maxDepth).value(undefined, first);
    scanner.skip();
    if (!scanner.atEnd) return undefined;
    delete root.parent;
    return root as Node;
  } catch (e) {
    if (e === notPlain || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** Builds jsonc-parser's nodes from the scanner's tokens, in parseTree's field order. */
class TreeBuilder {
  private depth = 0;

  constructor(
    private readonly scan: PlainJsonScanner,
    private readonly maxDepth: number,
  ) {}

  /** The value starting at the scanner's position (trivia skipped; `ch` is its first code), as a child of `parent`. */
  value(parent: Built | undefined, ch: number): Built {
    const scan = this.scan;
    const offset = scan.pos;
    switch (ch) {
      case C.OpenBrace:
        return this.object(parent);
      case C.OpenBracket:
        return this.array(parent);
      case C.Quote: {
        const s = scan.string();
        return this.literal(parent, 'string', offset, s);
      }
      case 0x74 /* t */:
        scan.word('true');
        return this.literal(parent, 'boolean', offset, true);
      case 0x66 /* f */:
        scan.word('false');
        return this.literal(parent, 'boolean', offset, false);
      case 0x6e /* n */:
        scan.word('null');
        return this.literal(parent, 'null', offset, null);
      default: {
        if (ch !== C.Minus && !(ch >= C.Zero && ch <= C.Nine)) throw notPlain;
        const v = scan.number();
        return this.literal(parent, 'number', offset, v);
      }
    }
  }

  private literal(parent: Built | undefined, type: Node['type'], offset: number, value: unknown): Built {
    return { type, offset, length: this.scan.pos - offset, parent, value } as Built;
  }

  private object(parent: Built | undefined): Built {
    const scan = this.scan;
    if (++this.depth > this.maxDepth) throw notPlain;
    const node = { type: 'object', offset: scan.pos, length: -1, parent, children: [] } as Built;
    const children = node.children as Built[];
    scan.pos++;
    let ch = scan.skip();
    while (ch !== C.CloseBrace) {
      if (ch !== C.Quote) throw notPlain;
      children.push(this.property(node));
      ch = scan.skip();
      if (ch === C.Comma) {
        scan.pos++;
        ch = scan.skip();
      } else if (ch !== C.CloseBrace) throw notPlain;
    }
    scan.pos++;
    node.length = scan.pos - node.offset;
    this.depth--;
    return node;
  }

  /** The `"name": value` pair starting at the scanner's position (a quote), in `object`. */
  private property(object: Built): Built {
    const scan = this.scan;
    const keyOffset = scan.pos;
    const name = scan.string();
    const property = { type: 'property', offset: keyOffset, length: -1, parent: object, children: [] } as Built;
    const children = property.children as Built[];
    children.push({ type: 'string', value: name, offset: keyOffset, length: scan.pos - keyOffset, parent: property } as Built);
    if (scan.skip() !== C.Colon) throw notPlain;
    property.colonOffset = scan.pos;
    scan.pos++;
    const v = this.value(property, scan.skip());
    children.push(v);
    property.length = v.offset + v.length - keyOffset;
    return property;
  }

  private array(parent: Built | undefined): Built {
    const scan = this.scan;
    if (++this.depth > this.maxDepth) throw notPlain;
    const node = { type: 'array', offset: scan.pos, length: -1, parent, children: [] } as Built;
    const children = node.children as Built[];
    scan.pos++;
    let ch = scan.skip();
    while (ch !== C.CloseBracket) {
      children.push(this.value(node, ch));
      ch = scan.skip();
      if (ch === C.Comma) {
        scan.pos++;
        ch = scan.skip();
      } else if (ch !== C.CloseBracket) throw notPlain;
    }
    scan.pos++;
    node.length = scan.pos - node.offset;
    this.depth--;
    return node;
  }
}
