// Copy as curl / Python: on a record row, the read of that record as the client sends it; on a
// request line of the log, that request. The copied command is run against the sandbox with
// `curl` (and the snippet with Python's `requests`), the token coming from $EO_API_TOKEN, and
// must get the same body as the same request sent directly. The token's value is never copied.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/commandIds';
import type { ExplorerNode, RecordNode } from '../../../src/explorer/tree';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';

function run(file: string, args: string[], token: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { env: { ...process.env, EO_API_TOKEN: token }, timeout: 30_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** The copied curl text, run by a shell exactly as pasted into a terminal. */
const runCurl = (text: string, token: string): Promise<string> => run('/bin/sh', ['-c', text], token);
const runPython = (text: string, token: string): Promise<string> => run('/usr/bin/python3', ['-'], token, text);

async function direct(url: string, token: string, init: { method?: string; body?: string } = {}): Promise<unknown> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body,
  });
  assert.equal(res.status, 200, `direct ${init.method ?? 'GET'} ${url} → ${res.status}`);
  return res.json();
}

async function firstRecord(nodes: ExplorerNode[], kind: string): Promise<RecordNode> {
  // The extension runs as its own bundle: its classes are not this file's, so no instanceof.
  const found = nodes.find((n): n is RecordNode => n.kind === kind && 'recordId' in n);
  assert.ok(found, `no ${kind} row: ${nodes.map((n) => n.kind).join(', ')}`);
  return found;
}

suite('copy as curl / Python: record rows and logged requests', function () {
  this.timeout(90_000);
  const env = useSandbox();

  test('Copy as curl on a project row reproduces GET /v0/projects/{id}; the body matches', async () => {
    const { api, sandbox } = env.current;
    const token = sandbox.tokens.alice;
    const project = await firstRecord(await api.services.explorer!.providers.projects.getChildren(), 'project');
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand(COMMANDS.copyAsCurl, project);
    const text = await vscode.env.clipboard.readText();
    const url = `${sandbox.url}/v0/projects/${encodeURIComponent(project.recordId)}`;
    assert.ok(text.startsWith(`curl -sS '${url}'`), `unexpected curl:\n${text}`);
    assert.ok(text.includes('"Authorization: Bearer $EO_API_TOKEN"'), `no token variable:\n${text}`);
    assert.ok(!text.includes(token), 'the token value was copied');
    assert.deepEqual(JSON.parse(await runCurl(text, token)), await direct(url, token));
  });

  test('Copy as Python on an order row runs with requests and prints the same body', async () => {
    const { api, sandbox } = env.current;
    const token = sandbox.tokens.alice;
    const order = await firstRecord(await api.services.explorer!.providers.orders.getChildren(), 'order');
    await vscode.commands.executeCommand(COMMANDS.copyAsPython, order);
    const text = await vscode.env.clipboard.readText();
    assert.ok(text.includes('os.environ["EO_API_TOKEN"]'), `no token variable:\n${text}`);
    assert.ok(!text.includes(token), 'the token value was copied');
    const url = `${sandbox.url}/v0/orders/${encodeURIComponent(order.recordId)}`;
    assert.ok(text.includes(JSON.stringify(url)), `not the read of the order:\n${text}`);
    assert.deepEqual(JSON.parse(await runPython(text, token)), await direct(url, token));
  });

  test('Copy Logged Request as curl: a POST with its JSON body, picked by its log line', async () => {
    const { api, sandbox } = env.current;
    const token = sandbox.tokens.alice;
    const client = await api.services.connection.getClient();
    const request = { offset: 0, limit: 3 };
    await client.catalogs.searchPage(request);
    const prompts = new ScriptedPrompts([
      {
        kind: 'pick',
        match: /Copy Logged Request as curl/,
        choose: (items) => items.find((i) => i.label.startsWith('POST /v0/catalogs/search → 200')),
      },
    ]);
    const restore = api.testing.usePrompts(prompts);
    try {
      await vscode.commands.executeCommand(COMMANDS.copyLoggedRequestAsCurl);
    } finally {
      restore();
    }
    prompts.assertDone();
    const text = await vscode.env.clipboard.readText();
    assert.match(text, /^curl -sS -X POST '/);
    assert.ok(text.includes(`--data-raw '${JSON.stringify(request)}'`), `body not copied:\n${text}`);
    assert.ok(!text.includes(token), 'the token value was copied');
    const body = JSON.stringify(request);
    assert.deepEqual(JSON.parse(await runCurl(text, token)), await direct(`${sandbox.url}/v0/catalogs/search`, token, { method: 'POST', body }));
  });

  test('with authScheme "raw" the copied header sends the bare token, as the client does', async () => {
    const { api, sandbox } = env.current;
    const cfg = vscode.workspace.getConfiguration('eoImagery');
    await cfg.update('authScheme', 'raw', vscode.ConfigurationTarget.Global);
    try {
      const deadline = Date.now() + 10_000;
      while (api.services.connection.settings.authScheme !== 'raw' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const project = await firstRecord(await api.services.explorer!.providers.projects.getChildren(), 'project');
      await vscode.commands.executeCommand(COMMANDS.copyAsCurl, project);
      const text = await vscode.env.clipboard.readText();
      assert.ok(text.includes('"Authorization: $EO_API_TOKEN"'), `raw scheme not followed:\n${text}`);
      const url = `${sandbox.url}/v0/projects/${encodeURIComponent(project.recordId)}`;
      assert.deepEqual(JSON.parse(await runCurl(text, sandbox.tokens.alice)), await direct(url, sandbox.tokens.alice));
    } finally {
      await cfg.update('authScheme', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
