// What holds the catches of src/commands (issue 40): ESLint's eo/catch-recovers wants each to
// say what it recovers from; scripts/catch-budget.mjs counts them against the budget in
// `npm run lint`. And the two helpers that took the repeated ones: parse.ts and orReason.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { decodedOr, parseJson, urlOf } from '../../src/parse';

const ROOT = path.join(__dirname, '../../..');
const importEsm = new Function('u', 'return import(u)') as (u: string) => Promise<unknown>;

async function lint(code: string, file = 'src/commands/example.ts'): Promise<number[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [r] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return r.messages.filter((m) => m.ruleId === 'eo/catch-recovers').map((m) => m.line);
}

test('lint refuses a catch in a command that does not say what it recovers from', async () => {
  const code = `export async function f(work: () => Promise<number>): Promise<number | undefined> {
  try {
    return await work();
  } catch {
    return undefined;
  }
}
export async function g(work: () => Promise<number>): Promise<number | undefined> {
  try {
    return await work();
  } catch {
    // Recovers from a list that cannot be read: the picker says so.
    return undefined;
  }
}
export async function h(work: () => Promise<number>): Promise<number | undefined> {
  try {
    return await work();
  } catch (e) { // recovers from the person's Cancel
    if (e instanceof Error) return undefined;
    throw e;
  }
}
`;
  assert.deepEqual(await lint(code), [4]);
  assert.deepEqual(await lint(code, 'src/explorer/example.ts'), [], 'the rule is for src/commands');
});

test('the catch budget counts catch clauses, not .catch() calls or words in comments', async () => {
  const { catchSites } = (await importEsm(pathToFileURL(path.join(ROOT, 'scripts/catch-budget.mjs')).href)) as { catchSites(dir: string): string[] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-catches-'));
  try {
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'a.ts'), 'try { f(); } catch { /* recovers */ }\nvoid p.catch(() => 1); // catch (e) {\n');
    fs.writeFileSync(path.join(dir, 'sub', 'b.ts'), "const s = 'catch (x) {';\ntry { f(); } catch (e) { g(e); }\n");
    assert.equal(catchSites(dir).length, 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('parse.ts answers instead of throwing', () => {
  assert.deepEqual(parseJson('{"a":1}'), { value: { a: 1 } });
  const bad = parseJson('{"a":');
  assert.ok('reason' in bad && bad.reason.length > 0);
  assert.equal(decodedOr('a%20b'), 'a b');
  assert.equal(decodedOr('100%'), '100%', 'a malformed encoding comes back as it is');
  assert.equal(decodedOr('100%', 'plain'), 'plain');
  assert.equal(urlOf('https://x.test/a?b=1')?.searchParams.get('b'), '1');
  assert.equal(urlOf('/a', 'https://x.test')?.href, 'https://x.test/a');
  assert.equal(urlOf('not a url'), undefined);
});
