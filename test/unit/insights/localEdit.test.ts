// Quick-fix edits inside the `input` array computed on the entries near the edit
// (src/insights/validate/localEdit.ts) are the edits jsonc-parser's `modify` computes on the
// whole file, whatever the layout: one entry per line, several per line, entries over several
// lines, comments between them, tabs, CRLF.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modify, parseTree, type JSONPath, type ModificationOptions } from 'jsonc-parser';
import { modifyInput, type EntrySpans } from '../../../src/insights/validate/localEdit';
import { validateInsightText, type SpecLookup } from '../../../src/insights/validate';
import { SPEC, generatedInsight } from './fixtures';
import { Rng } from '../../../src/sandbox/prng';

const ENTRIES = [
  '{ "format": "number", "name": "a", "value": "1" }',
  '{ "format": "raster", "name": "r", "type": "url", "stac_url": "s", "asset_source": { "id": "x", "type": "bad" } }',
  '{\n      "format": "date",\n      "name": "d",\n      "value": "2024-01-01"\n    }',
  '{"name":"c","format":"string","type":"string","value":"v"}',
  '{ "format": "vector", "name": "v", "asset_source": {\n "id": "y" } }',
  '{}',
];
const SEPARATORS = [',\n    ', ', ', ',\n\n  ', ' ,\n\t', ', // note\n    ', ',\n    /* block */ ', ',\n'];

function document(r: (n: number) => number): string {
  const n = 1 + r(14);
  const entries = Array.from({ length: n }, () => ENTRIES[r(ENTRIES.length)]);
  let body = entries[0];
  for (let i = 1; i < n; i++) body += SEPARATORS[r(SEPARATORS.length)] + entries[i];
  const text = `{\n  "name": "x", // the name\n  "block": { "name": "b", "version": "1" },\n  "input": [\n    ${body}\n  ],\n  "after": true\n}\n`;
  return r(3) === 0 ? text.replace(/\n/g, '\r\n') : text;
}

function spansOf(text: string): EntrySpans {
  const input = parseTree(text)?.children?.find((p) => p.children?.[0].value === 'input')?.children?.[1];
  const entries = input?.children ?? [];
  return Int32Array.from(entries.flatMap((e) => [e.offset, e.offset + e.length]));
}

function paths(n: number, r: (k: number) => number): Array<{ path: JSONPath; value: unknown; insert?: boolean }> {
  const i = r(n);
  return [
    { path: ['input', i, 'type'], value: 'number' },
    { path: ['input', i], value: undefined },
    { path: ['input', n], value: { name: 'new', format: 'number', type: 'number', value: '' }, insert: true },
    { path: ['input', i, 'asset_source'], value: { id: 'z', type: 'raw_mosaic' } },
    { path: ['input', i, 'asset_source', 'type'], value: 'model_output' },
    { path: ['input', i], value: { replaced: true } },
  ];
}

describe('quick-fix edits near the entry they change', () => {
  it('equal jsonc-parser modify on the whole file, for 400 random layouts and every kind of edit', () => {
    const g = new Rng(20261127);
    const r = (n: number): number => g.int(0, n - 1);
    let compared = 0;
    for (let k = 0; k < 400; k++) {
      const text = document(r);
      const spans = spansOf(text);
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      for (const { path, value, insert } of paths(spans.length / 2, r)) {
        const options: ModificationOptions = {
          formattingOptions: { tabSize: 1 + r(4), insertSpaces: r(4) > 0, eol },
          isArrayInsertion: insert === true,
        };
        let expected: unknown;
        try {
          expected = modify(text, path, value, options);
        } catch (e) {
          expected = (e as Error).message;
        }
        let actual: unknown;
        try {
          actual = modifyInput(text, spans, path, value, options);
        } catch (e) {
          actual = (e as Error).message;
        }
        assert.deepEqual(actual, expected, `${JSON.stringify(path)} in\n${text}`);
        compared++;
      }
    }
    assert.equal(compared, 2400);
  });

  it("a generated file's fixes (Add type, Remove input) equal modify on the whole file", () => {
    const found: SpecLookup = { status: 'found', spec: SPEC };
    const text = generatedInsight(20_000);
    const spans = spansOf(text);
    const entryAt = (offset: number): number => {
      for (let i = 0; i < spans.length / 2; i++) if (spans[2 * i] <= offset && offset < spans[2 * i + 1]) return i;
      return -1;
    };
    const options: ModificationOptions = { formattingOptions: { tabSize: 2, insertSpaces: true, eol: '\n' }, isArrayInsertion: false };
    let checked = 0;
    for (const d of validateInsightText(text, found)) {
      const i = entryAt(d.offset);
      for (const fix of d.fixes) {
        if (fix.kind !== 'edit') continue;
        const whole = fix.title.startsWith('Add "type"')
          ? modify(text, ['input', i, 'type'], 'number', options)
          : fix.title.startsWith('Remove input')
            ? modify(text, ['input', i], undefined, options)
            : undefined;
        if (!whole) continue;
        assert.deepEqual(fix.edits(), whole, `${fix.title} of entry ${i}`);
        checked++;
      }
    }
    assert.ok(checked > 150, `${checked} fixes compared`);
  });
});
