// Hostile and large insight files: validation stays linear in the file's size and a file
// nested too deep gets a diagnostic instead of a stack overflow.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { applyEdits } from 'jsonc-parser';
import { insightValue, parseInsight, validateInsightText, type SpecLookup } from '../../../src/insights/validate';
import { SPEC } from './fixtures';

const found: SpecLookup = { status: 'found', spec: SPEC };

/** A file of `n` number inputs, none with "type" (each gets a diagnostic and a quick fix). */
export function untypedInputs(n: number): string {
  const input = Array.from({ length: n }, (_, i) => `    { "format": "number", "name": "n${i}", "description": "input ${i}", "value": "${i}" }`);
  return `{\n  "name": "big",\n  "block": { "name": "water-extent", "version": "0.9.1" },\n  "input": [\n${input.join(',\n')}\n  ]\n}\n`;
}

function fastest(run: () => void, times = 3): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe('validator: size and depth', () => {
  it('grows linearly with the number of inputs that need a fix', () => {
    const small = untypedInputs(500);
    const large = untypedInputs(4000);
    const d = validateInsightText(large, found);
    assert.equal(d.filter((x) => x.code === 'type-missing').length, 4000);
    const tSmall = fastest(() => validateInsightText(small, found));
    const tLarge = fastest(() => validateInsightText(large, found));
    // 8× the inputs: linear work takes about 8× as long, quadratic about 64×.
    assert.ok(tLarge < tSmall * 24, `500 inputs ${tSmall.toFixed(1)} ms, 4000 inputs ${tLarge.toFixed(1)} ms`);
  });

  it('a quick fix computed on demand still edits the right input', () => {
    const text = untypedInputs(3);
    const d = validateInsightText(text, found).find((x) => x.code === 'type-missing' && text.slice(x.offset, x.offset + x.length) === '"n1"');
    const fix = d?.fixes.find((f) => f.kind === 'edit');
    assert.ok(fix && fix.kind === 'edit');
    const fixed = JSON.parse(applyEdits(text, fix.edits())) as { input: Array<Record<string, string>> };
    assert.equal(fixed.input[1].type, 'number');
    assert.equal(fixed.input[0].type, undefined);
  });

  for (const depth of [300, 7000, 100_000]) {
    it(`nesting ${depth} levels deep gives a diagnostic, not a stack overflow`, () => {
      const text = `{"name":"x","block":{"name":"b","version":"1"},"input":[{"name":"a","type":"string","value":${'['.repeat(depth)}${']'.repeat(depth)}}]}`;
      const d = validateInsightText(text, undefined);
      assert.deepEqual(
        d.map((x) => x.code),
        ['document-too-deep'],
      );
      assert.equal(text[d[0].offset], '[');
      assert.equal(insightValue(parseInsight(text)), undefined);
    });
  }

  it('brackets inside strings and comments do not count as nesting', () => {
    const deepText = '['.repeat(1000);
    const text = `// ${deepText}\n{"name":"x /* ${deepText}","block":{"name":"b","version":"1"}, /* ${deepText} */ "input":[]}`;
    assert.deepEqual(
      validateInsightText(text, undefined).map((x) => x.code),
      [],
    );
  });

  it("Run reads the file with the validator's parser: comments, trailing commas and a BOM are fine", () => {
    const text = '\uFEFF// by hand\n{ "name": "n", "block": { "name": "b", "version": "1", }, "input": [], }\n';
    assert.deepEqual(JSON.parse(JSON.stringify(insightValue(parseInsight(text)))), { name: 'n', block: { name: 'b', version: '1' }, input: [] });
    assert.equal(insightValue(parseInsight('{ "name": "n" "block": {} }')), undefined, 'a syntax error is not run');
  });
});
