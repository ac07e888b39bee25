import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { COMMANDS, INTERNAL_COMMANDS } from '../../../src/commandIds';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command?: string }[]>;
    viewsWelcome: { contents: string }[];
  };
}

// out/test/unit/manifest → the repository root
const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
const table = new Set<string>(Object.values(COMMANDS));
const internal = new Set<string>(INTERNAL_COMMANDS.map((k) => COMMANDS[k]));

describe('the command table (src/commandIds.ts) and package.json', () => {
  it('declares every command of the table except the internal ones, and no other', () => {
    const declared = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual([...declared].sort(), [...table].filter((id) => !internal.has(id)).sort());
  });

  it('has no id twice', () => {
    assert.equal(table.size, Object.values(COMMANDS).length);
  });

  it('names only commands of the table in menus and welcome views', () => {
    const inMenus = Object.values(manifest.contributes.menus)
      .flat()
      .map((m) => m.command)
      .filter((c): c is string => !!c);
    const inWelcome = manifest.contributes.viewsWelcome.flatMap((w) => [...w.contents.matchAll(/command:([\w.]+)/g)].map((m) => m[1]));
    const unknown = [...inMenus, ...inWelcome].filter((c) => c.startsWith('eoImagery.') && !table.has(c));
    assert.deepEqual(unknown, []);
  });
});
