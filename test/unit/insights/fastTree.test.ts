// The fast path for well-formed insight files (src/insights/validate/fastTree.ts) builds the
// tree jsonc-parser's parseTree builds, node for node, and steps aside (undefined) for every
// text parseTree reports an error in: random documents, valid and broken one character at a
// time, with comments, trailing commas, escapes and every kind of number.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { fastParseTree } from '../../../src/insights/validate/fastTree';
import { generatedInsight } from './fixtures';
import { Rng } from '../../../src/sandbox/prng';

const STRINGS = ['""', '"a"', '"name"', '"with \\"quote\\""', '"\\u00e9\\n\\t\\/\\\\"', '"\\uD800"', '"é ☃"', '"a\\qb"', '"\\u12"'];
const NUMBERS = ['0', '-0', '1', '-12.5', '3e10', '1E-7', '0.25e+3', '01', '1.', '-', '1e', '.5', '+1', '1e999'];
const TRIVIA = ['', ' ', '\n', '\r\n', '\t', ' // line\n', '/* block */', '/* a\n b */ ', '\u00a0', '\v'];

function value(r: (n: number) => number, depth: number): string {
  const t = (): string => TRIVIA[r(TRIVIA.length)];
  switch (depth > 3 ? r(5) : r(8)) {
    case 0:
      return STRINGS[r(STRINGS.length)];
    case 1:
      return NUMBERS[r(NUMBERS.length)];
    case 2:
      return ['true', 'false', 'null', 'nul', 'truex'][r(5)];
    case 3:
    case 4:
      return STRINGS[r(3)];
    case 5:
    case 6: {
      const props = Array.from({ length: r(5) }, () => `${t()}${STRINGS[r(STRINGS.length)]}${t()}:${t()}${value(r, depth + 1)}${t()}`);
      return `{${props.join(',')}${props.length && r(4) === 0 ? ',' : ''}${t()}}`;
    }
    default: {
      const items = Array.from({ length: r(5) }, () => `${t()}${value(r, depth + 1)}${t()}`);
      return `[${items.join(',')}${items.length && r(4) === 0 ? ',' : ''}${t()}]`;
    }
  }
}

/** A node's fields, its children's, and that each child's parent is the node. */
function shape(node: Node | undefined, parent?: Node): unknown {
  if (!node) return undefined;
  assert.equal(node.parent, parent, 'parent');
  return {
    keys: Object.keys(node),
    type: node.type,
    offset: node.offset,
    length: node.length,
    value: Object.is(node.value, -0) ? '-0' : node.value,
    colonOffset: node.colonOffset,
    children: node.children?.map((c) => shape(c, node)),
  };
}

function compare(text: string): 'fast' | 'slow' {
  const errors: ParseError[] = [];
  const expected = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const fast = fastParseTree(text);
  if (errors.length > 0) {
    assert.equal(fast, undefined, `the fast path must step aside for ${JSON.stringify(text)}`);
    return 'slow';
  }
  assert.notEqual(fast, undefined, `a well-formed text must take the fast path: ${JSON.stringify(text)}`);
  assert.equal('parent' in fast!, false);
  assert.deepEqual(shape(fast), shape(expected), JSON.stringify(text));
  return 'fast';
}

describe('the fast parse of well-formed insight files', () => {
  it('builds the tree parseTree builds, or steps aside where parseTree reports an error', () => {
    const g = new Rng(7);
    const r = (n: number): number => g.int(0, n - 1);
    const seen = { fast: 0, slow: 0 };
    for (let i = 0; i < 3000; i++) {
      let text = `${TRIVIA[r(TRIVIA.length)]}${value(r, 0)}${TRIVIA[r(TRIVIA.length)]}`;
      // A third of the documents get one character removed or doubled.
      if (r(3) === 0 && text.length > 0) {
        const at = r(text.length);
        text = r(2) ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + text[at] + text.slice(at);
      }
      seen[compare(text)]++;
    }
    // Most well-formed documents take the fast path; broken ones never do.
    assert.ok(seen.fast > 1000, JSON.stringify(seen));
    assert.ok(seen.slow > 500, JSON.stringify(seen));
  });

  it('takes the fast path for a generated insight file and for nothing but whitespace and comments gives undefined', () => {
    assert.equal(compare(generatedInsight(50_000)), 'fast');
    for (const text of ['', '  ', '// only a comment\n', '/* open', '{} {}', '{}}', '[1,,2]', '{"a":1,,}', '{"a" 1}']) {
      assert.equal(fastParseTree(text), undefined, JSON.stringify(text));
    }
  });

  it('steps aside for nesting deeper than its limit, counting objects and arrays alike', () => {
    const nest = (levels: number): string => `${'[{"a":'.repeat(levels / 2)}1${'}]'.repeat(levels / 2)}`;
    assert.ok(fastParseTree(nest(8), 8));
    assert.equal(fastParseTree(nest(10), 8), undefined);
    // Siblings do not add up: depth falls back as each array or object closes.
    assert.ok(fastParseTree(`[${Array.from({ length: 20 }, () => nest(8)).join(',')}]`, 9));
  });
});
