// Runs last (files run in name order): after a session that signs in (once with a wrong
// token), registers a store with secrets and fetches a signed download link, the real log
// file of the "EO Imagery" output channel must hold every request line and none of the
// tokens, Authorization headers, store secrets or signed URLs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/commandIds';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { client, runScripted } from './ordersSupport';

const WRONG_TOKEN = 'not-a-real-token-7f3a9c';
const ACCESS_KEY = 'AKIALOGCHECK0000';
const SECRET = 'log-check-secret-Zq8TnW3vXkP2';

function logFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? logFiles(full) : e.name.endsWith('.log') ? [full] : [];
  });
}

suite('log: a full session leaves no secret in the log', function () {
  this.timeout(90_000);
  const sb = useSandbox();

  test('requests are logged with method, path, status and duration; tokens, secrets and signed URLs are not', async () => {
    const conn = sb.current;
    const { services } = conn.api;

    // Sign in again through the command, first with a token the service refuses.
    const signIn = new ScriptedPrompts([
      { kind: 'input', match: /Sign In/, answer: WRONG_TOKEN },
      // the box stays open with what was typed and the refusal in it
      { kind: 'input', match: /Sign In/, answer: conn.sandbox.tokens.alice },
    ]);
    await runScripted(conn, signIn, COMMANDS.signIn);
    signIn.assertDone();
    assert.match(signIn.seen[0].label, /\(1\/1\)/, 'the token step says where it is');
    const reopened = signIn.seen[1];
    assert.equal(reopened.value, WRONG_TOKEN, 'what was typed is kept');
    assert.match(reopened.message ?? '', /did not accept this token \(401\)/);
    assert.ok(!signIn.messages.some((m) => m.severity === 'error'), 'a refused token is said in the box, not in a toast');

    // A store with secrets.
    const register = new ScriptedPrompts([
      { kind: 'pick', match: /Kind of cloud store/, choose: 'S3' },
      { kind: 'input', match: /Name of the store/, answer: 'log-check-store' },
      { kind: 'input', match: /S3 bucket/, answer: 'log-check-bucket' },
      { kind: 'input', match: /S3 region/, answer: 'eu-west-1' },
      { kind: 'input', match: /Folder prefix inside the bucket \(optional\)/, answer: 'x/' },
      { kind: 'input', match: /Access key ID/, answer: ACCESS_KEY },
      { kind: 'input', match: /Secret access key/, answer: SECRET },
      { kind: 'input', match: /Labels/, answer: '' },
    ]);
    await runScripted(conn, register, COMMANDS.registerStore);
    register.assertDone();

    // A signed download link, through the extension's own client.
    const api = await client(conn);
    const catalogs = await api.catalogs.searchPage({ limit: 1 });
    assert.ok(catalogs.items.length > 0, 'the sandbox has no catalog entry to download');
    const created = await api.downloads.create({ catalog_ids: [catalogs.items[0].id] });
    conn.sandbox.clock.advance(60_000);
    const done = await api.downloads.get(created.id);
    assert.equal(done.status, 'success');
    assert.ok(done.signed_url, 'no signed URL to look for');
    const signedPath = new URL(done.signed_url).pathname + new URL(done.signed_url).search;

    // The log is written asynchronously: wait until a marker written now is in the file.
    const marker = `log-check-marker-${Date.now()}`;
    services.log.info(marker);
    const dir = services.context.logUri.fsPath;
    let text = '';
    const deadline = Date.now() + 15_000;
    while (!text.includes(marker)) {
      if (Date.now() > deadline) {
        assert.fail(`the marker never reached a log file under ${dir}: ${logFiles(dir).join(', ') || 'no .log files'}`);
      }
      await new Promise((r) => setTimeout(r, 100));
      text = logFiles(dir)
        .map((f) => fs.readFileSync(f, 'utf8'))
        .join('\n');
    }

    assert.match(text, /GET \/v0\/projects\?page_num=1&page_size=1 → 200 in \d+ ms/, 'the sign-in check is not logged');
    assert.match(text, /GET \/v0\/projects\?page_num=1&page_size=1 → 401 in \d+ ms/, 'the refused sign-in check is not logged');
    assert.match(text, /POST \/v0\/stores → 201 in \d+ ms/, 'the store registration is not logged');
    assert.match(text, /POST \/v0\/catalogs\/download → 201 in \d+ ms/, 'the download request is not logged');

    const forbidden: [string, string][] = [
      [conn.sandbox.tokens.alice, "alice's token"],
      [conn.sandbox.tokens.bob, "bob's token"],
      [WRONG_TOKEN, 'the refused token'],
      [ACCESS_KEY, 'the store access key'],
      [SECRET, 'the store secret'],
      [signedPath, 'the signed download URL'],
    ];
    for (const [value, what] of forbidden) assert.ok(!text.includes(value), `${what} appears in the log`);
    assert.doesNotMatch(text, /authorization|bearer /i, 'an Authorization header appears in the log');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('eoImagery')).includes(conn.sandbox.tokens.alice), 'the token is in settings');
  });
});
