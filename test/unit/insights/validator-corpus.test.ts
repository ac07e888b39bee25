import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { applyEdits } from 'jsonc-parser';
import { validateInsightText, type InsightDiagnostic, type SpecLookup } from '../../../src/insights/validate';
import { FIXTURES, readFixture, SPEC } from './fixtures';

interface Expectation {
  code: string;
  line: number;
  covers: string;
  fix?: string;
  severity?: string;
}
interface Case {
  file: string;
  lookup?: SpecLookup;
  expect: Expectation[];
}

const corpus = JSON.parse(readFixture('broken/cases.json')) as { cases: Case[] };
const found: SpecLookup = { status: 'found', spec: SPEC };

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

function applyFix(text: string, d: InsightDiagnostic, title: string): string {
  const fix = d.fixes.find((f) => f.title === title);
  assert.ok(fix, `fix "${title}" among ${JSON.stringify(d.fixes.map((f) => f.title))}`);
  assert.equal(fix.kind, 'edit');
  return applyEdits(text, fix.kind === 'edit' ? fix.edits() : []);
}

describe('validator: the broken-file corpus', () => {
  it('covers every file in the folder', () => {
    const files = readdirSync(path.join(FIXTURES, 'broken')).filter((f) => f.endsWith('.insight.json'));
    assert.deepEqual(files.sort(), corpus.cases.map((c) => c.file).sort());
  });

  for (const c of corpus.cases) {
    it(`${c.file}: ${c.expect.map((e) => e.code).join(', ')}`, () => {
      const text = readFixture(`broken/${c.file}`);
      const diags = validateInsightText(text, c.lookup ?? found);
      const got = diags.map((d) => ({
        code: d.code,
        line: lineOf(text, d.offset),
        covers: text.slice(d.offset, d.offset + d.length),
        severity: d.severity,
      }));
      const want = c.expect.map((e) => ({ code: e.code, line: e.line, covers: e.covers, severity: e.severity ?? 'error' }));
      const key = (x: { code: string; line: number }): string => `${x.code}@${x.line}`;
      assert.deepEqual(
        [...got].sort((a, b) => key(a).localeCompare(key(b))),
        [...want].sort((a, b) => key(a).localeCompare(key(b))),
      );

      // Each quick fix named by the corpus removes its diagnostic when applied.
      for (const e of c.expect.filter((x) => x.fix)) {
        const d = diags.find((x) => x.code === e.code);
        assert.ok(d);
        const fixed = applyFix(text, d, e.fix ?? '');
        const after = validateInsightText(fixed, c.lookup?.status === 'unknown-version' ? found : (c.lookup ?? found));
        assert.ok(!after.some((x) => x.code === e.code && x.message === d.message), `"${e.fix}" left ${e.code} in place:\n${fixed}`);
      }
    });
  }

  it('the well-formed fixture produces nothing, signed in or not (bar the sign-in note)', () => {
    const text = readFixture('valid.insight.json');
    assert.deepEqual(validateInsightText(text, found), []);
    assert.deepEqual(
      validateInsightText(text, { status: 'signed-out' }).map((d) => d.code),
      ['spec-needs-sign-in'],
    );
    assert.deepEqual(validateInsightText(text, undefined), []);
  });

  it('a fix that adds a missing required input produces a copy of its definition with type set', () => {
    const text = readFixture('broken/required-missing.insight.json');
    const d = validateInsightText(text, found).find((x) => x.code === 'input-required-missing');
    assert.ok(d);
    const fixed = JSON.parse(applyFix(text, d, 'Add input "season_start" from the spec')) as { input: Record<string, unknown>[] };
    const added = fixed.input[fixed.input.length - 1];
    assert.deepEqual(added, { ...SPEC.inputs[2] });
  });

  it('a required input missing, then its value: each message says it is required and what the spec says it is', () => {
    const text = readFixture('broken/required-missing.insight.json');
    const d = validateInsightText(text, found).find((x) => x.code === 'input-required-missing');
    assert.ok(d);
    assert.equal(d.message, 'Required input "season_start" (date) is missing: First day of the season.');
    const fixed = applyFix(text, d, 'Add input "season_start" from the spec');
    const value = validateInsightText(fixed, found).find((x) => x.code === 'value-missing');
    assert.equal(value?.message, 'Input "season_start" has no "value" (required, date): First day of the season.');
  });

  it('an unknown input can be removed', () => {
    const text = readFixture('broken/unknown-input.insight.json');
    const d = validateInsightText(text, found).find((x) => x.code === 'input-unknown');
    assert.ok(d);
    const fixed = JSON.parse(applyFix(text, d, 'Remove input "imagry"')) as { input: { name: string }[] };
    assert.deepEqual(
      fixed.input.map((i) => i.name),
      ['fields', 'season_start'],
    );
  });

  it('an asset_source missing with no sibling to copy offers only the pick-an-asset fix', () => {
    const text = JSON.stringify(
      {
        name: 'x',
        block: { name: 'crop-health', version: '1.2.0' },
        input: [{ format: 'raster', name: 'previous', type: 'url', description: '', value: 'https://x/y.tif' }],
      },
      null,
      2,
    );
    const d = validateInsightText(text, undefined).find((x) => x.code === 'asset-source-missing');
    assert.deepEqual(
      d?.fixes.map((f) => f.kind),
      ['pick-asset-source'],
    );
  });

  it('reports nothing for text that does not parse into a tree, and the lone root for non-objects', () => {
    assert.deepEqual(validateInsightText('', found), []);
    assert.deepEqual(
      validateInsightText('[1, 2]', found).map((d) => d.code),
      ['document-not-object'],
    );
  });

  it('service trouble degrades to an info note and the file-only checks', () => {
    const text = readFixture('broken/value-not-string.insight.json');
    const codes = validateInsightText(text, { status: 'unavailable', reason: 'HTTP 500' }).map((d) => `${d.code}:${d.severity}`);
    assert.deepEqual(codes.sort(), ['spec-unavailable:info', 'value-not-string:error']);
  });
});
