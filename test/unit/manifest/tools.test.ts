import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TOOLS } from '../../../src/tools/toolIds';

interface Tool {
  name: string;
  toolReferenceName?: string;
  displayName?: string;
  modelDescription?: string;
  userDescription?: string;
  canBeReferencedInPrompt?: boolean;
  inputSchema?: { type?: string; properties?: Record<string, { description?: string }>; required?: string[] };
}

// out/test/unit/manifest → the repository root
const root = join(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { languageModelTools: Tool[] } };
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (v: string | undefined): string => nls[/^%(.+)%$/.exec(v ?? '')?.[1] ?? ''] ?? '';

describe('the chat tools (src/tools/toolIds.ts) and package.json', () => {
  const tools = manifest.contributes.languageModelTools;

  it('contributes every tool of the table, and no other', () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(TOOLS).sort());
  });

  it('gives each a unique #reference, a localised name and descriptions, and an object schema with described fields', () => {
    const refs = new Set<string>();
    for (const t of tools) {
      assert.match(t.toolReferenceName ?? '', /^eo[A-Z][A-Za-z]+$/, t.name);
      assert.ok(!refs.has(t.toolReferenceName ?? ''), `${t.name}: reference used twice`);
      refs.add(t.toolReferenceName ?? '');
      assert.equal(t.canBeReferencedInPrompt, true, t.name);
      assert.ok(text(t.displayName).startsWith('EO Imagery: '), `${t.name}: display name`);
      assert.ok(text(t.modelDescription).length >= 150, `${t.name}: the model description is not precise`);
      assert.ok(text(t.userDescription).length > 0, `${t.name}: user description`);
      assert.equal(t.inputSchema?.type, 'object', t.name);
      for (const [field, p] of Object.entries(t.inputSchema?.properties ?? {}))
        assert.ok(text(p.description).length > 10, `${t.name}.${field} is not described`);
      for (const r of t.inputSchema?.required ?? []) assert.ok(r in (t.inputSchema?.properties ?? {}), `${t.name}: required "${r}" is not a property`);
    }
  });

  it('says in the description of each tool that costs that the person confirms in our own dialog', () => {
    for (const name of [TOOLS.placeOrder, TOOLS.startRun]) {
      const t = tools.find((x) => x.name === name);
      assert.match(text(t?.modelDescription), /never .* by itself: .* EO Imagery's own .*dialog/, name);
    }
  });
});
