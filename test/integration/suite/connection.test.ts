// The connection commands a newcomer meets first: Try the Sandbox (the bundled sandbox started
// inside the extension host, nothing written to settings), the connection actions menu,
// Switch Base URL (each URL keeps its own token) and Sign Out.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/commandIds';
import { TRY_SANDBOX_PORT } from '../../../src/commands/connection/trySandbox';
import { extensionApi } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';

async function run(prompts: ScriptedPrompts, command: string): Promise<void> {
  const api = await extensionApi();
  const restore = api.testing.usePrompts(prompts);
  try {
    await vscode.commands.executeCommand(command);
  } finally {
    restore();
  }
  prompts.assertDone();
}

function baseUrlSetting(): string {
  return vscode.workspace.getConfiguration('eoImagery').get<string>('baseUrl', '');
}

suite('connection: sandbox, connection actions, base URL, sign-out', function () {
  this.timeout(60_000);

  suiteTeardown(async () => {
    const api = await extensionApi();
    await api.services.connection.signOut();
    await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
  });

  test('Try the Sandbox connects to a local sandbox with data; Stop the Sandbox ends it; settings untouched', async () => {
    const api = await extensionApi();
    const { connection, explorer } = api.services;
    const before = baseUrlSetting();
    const prompts = new ScriptedPrompts();
    await run(prompts, COMMANDS.trySandbox);
    assert.ok(connection.isSandbox, 'not connected to the sandbox');
    assert.notEqual(connection.state, 'signedOut');
    const url = connection.baseUrl;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(
      prompts.messages.some((m) => m.severity === 'info' && m.text.includes(url)),
      'no message says where the sandbox runs',
    );
    assert.equal(baseUrlSetting(), before, 'the sandbox URL was written to settings');

    assert.ok(explorer, 'services.explorer is not set');
    const rows = await explorer.providers.projects.getChildren();
    assert.ok(
      rows.some((r) => r.kind === 'project'),
      `the Projects view shows no project from the sandbox: ${rows.map((r) => r.kind).join(', ')}`,
    );
    assert.equal(connection.state, 'connected');

    await vscode.commands.executeCommand(COMMANDS.stopSandbox);
    assert.equal(connection.isSandbox, false);
    assert.equal(connection.state, 'signedOut');
    await assert.rejects(fetch(`${url}/ping`), 'the sandbox still answers after Stop the Sandbox');
  });

  test('Try the Sandbox again answers at the same address, so what the last session wrote still reads; a taken port gets another', async () => {
    const api = await extensionApi();
    const { connection } = api.services;
    await run(new ScriptedPrompts(), COMMANDS.trySandbox);
    const first = connection.baseUrl;
    assert.equal(first, `http://127.0.0.1:${TRY_SANDBOX_PORT}`, `port ${TRY_SANDBOX_PORT} was taken before the test`);
    await vscode.commands.executeCommand(COMMANDS.stopSandbox);
    await run(new ScriptedPrompts(), COMMANDS.trySandbox);
    assert.equal(connection.baseUrl, first, 'the second session is at another address: an insight file’s stac_url from the first no longer reads');
    await vscode.commands.executeCommand(COMMANDS.stopSandbox);
    // another program on the port: the sandbox starts on a free one
    const squatter = http.createServer((_q, r) => r.end('not the sandbox'));
    await new Promise<void>((resolve) => squatter.listen(TRY_SANDBOX_PORT, '127.0.0.1', resolve));
    try {
      await run(new ScriptedPrompts(), COMMANDS.trySandbox);
      assert.ok(connection.isSandbox);
      assert.match(connection.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(connection.baseUrl, first);
      assert.equal((await fetch(`${connection.baseUrl}/ping`)).ok, true);
    } finally {
      await vscode.commands.executeCommand(COMMANDS.stopSandbox);
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  test('the connection actions offer what fits the state and run the picked one', async () => {
    const api = await extensionApi();
    assert.equal(api.services.connection.state, 'signedOut');
    const prompts = new ScriptedPrompts([
      {
        kind: 'pick',
        match: /EO Imagery: signed out/,
        choose: (items) => {
          const labels = items.map((i) => i.label);
          assert.ok(
            labels.some((l) => l.includes('Sign In')),
            `no Sign In when signed out: ${labels.join(', ')}`,
          );
          assert.ok(!labels.some((l) => l.includes('Sign Out')), `Sign Out offered when signed out: ${labels.join(', ')}`);
          return items.find((i) => i.label.includes('Try the Sandbox'));
        },
      },
    ]);
    await run(prompts, COMMANDS.connectionActions);
    assert.ok(api.services.connection.isSandbox, 'the picked action did not run');

    const signedIn = new ScriptedPrompts([
      {
        kind: 'pick',
        match: /EO Imagery: (connected to|signed in to) the local sandbox/,
        choose: (items) => items.find((i) => i.label.includes('Stop the Sandbox')),
      },
    ]);
    await run(signedIn, COMMANDS.connectionActions);
    assert.equal(api.services.connection.isSandbox, false);
  });

  test('Switch Base URL validates the URL, stores it, and offers to sign in where no token is stored', async () => {
    const api = await extensionApi();
    const prompts = new ScriptedPrompts([
      { kind: 'input', match: /Switch Base URL/, answer: 'https://eo.example.test/' },
      { kind: 'message', match: /No token stored for https:\/\/eo\.example\.test/, answer: undefined },
    ]);
    await run(prompts, COMMANDS.switchBaseUrl);
    assert.equal(baseUrlSetting(), 'https://eo.example.test', 'the URL was not stored (normalised, without the trailing slash)');
    assert.equal(api.services.connection.state, 'signedOut');

    // The scripted prompts run the input box's validation: a URL with credentials is refused.
    const refused = new ScriptedPrompts([{ kind: 'input', match: /Switch Base URL/, answer: 'https://user:pw@eo.example.test' }]);
    await assert.rejects(run(refused, COMMANDS.switchBaseUrl), /credentials/);
    assert.equal(baseUrlSetting(), 'https://eo.example.test');
  });
  test('a workspace cannot redirect the token: baseUrl and authScheme in .vscode/settings.json are ignored', async () => {
    const api = await extensionApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the integration window has no folder');
    await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', 'https://eo.example.test', vscode.ConfigurationTarget.Global);
    const settingsFile = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const changed = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('eoImagery')) {
          sub.dispose();
          resolve();
        }
      });
    });
    await vscode.workspace.fs.writeFile(
      settingsFile,
      Buffer.from(JSON.stringify({ 'eoImagery.baseUrl': 'http://attacker.example.test', 'eoImagery.authScheme': 'raw' }), 'utf8'),
    );
    try {
      // Wait for VS Code to read the file (or give it a moment if it reports no change).
      await Promise.race([changed, new Promise((r) => setTimeout(r, 3000))]);
      const inspected = vscode.workspace.getConfiguration('eoImagery').inspect<string>('baseUrl');
      assert.equal(inspected?.globalValue, 'https://eo.example.test');
      assert.equal(api.services.connection.baseUrl, 'https://eo.example.test');
      assert.equal(api.services.connection.settings.authScheme, 'bearer');
    } finally {
      await vscode.workspace.fs.delete(settingsFile);
      await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
