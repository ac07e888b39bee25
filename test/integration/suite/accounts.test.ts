// The Accounts menu: the extension registers an authentication provider whose sessions are the
// base URLs signed in to (one account per URL, labelled with the host and the service user the
// service reports on the account's orders). Sign In and Sign Out go through it; removing a
// session from the menu removes that URL's token from SecretStorage.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AUTH_PROVIDER_ID } from '../../../src/auth/authProvider';
import { COMMANDS } from '../../../src/commandIds';
import { extensionApi, startSandbox, type Sandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';

async function setBaseUrl(url: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', url, vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + 10_000;
  while (vscode.workspace.getConfiguration('eoImagery').get<string>('baseUrl', '') !== (url ?? '')) {
    if (Date.now() > deadline) throw new Error('eoImagery.baseUrl did not change');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs the Sign In command against the configured base URL, answering the token box. */
async function signInWith(token: string): Promise<ScriptedPrompts> {
  const api = await extensionApi();
  const prompts = new ScriptedPrompts([{ kind: 'input', match: /Sign In to/, answer: token }]);
  const restore = api.testing.usePrompts(prompts);
  try {
    await vscode.commands.executeCommand(COMMANDS.signIn);
  } finally {
    restore();
  }
  prompts.assertDone();
  return prompts;
}

/** The user id the service stamps on this token's orders (the interface's `Order.user_id`). */
async function orderUser(sandbox: Sandbox, token: string): Promise<string | undefined> {
  const res = await fetch(`${sandbox.url}/v0/orders?offset=0&limit=1`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { orders: { user_id?: string }[] };
  return body.orders[0]?.user_id;
}

suite('accounts: the authentication provider behind the Accounts menu', function () {
  this.timeout(60_000);
  let a: Sandbox;
  let b: Sandbox;

  suiteSetup(async () => {
    [a, b] = await Promise.all([startSandbox(), startSandbox()]);
  });

  suiteTeardown(async () => {
    const api = await extensionApi();
    for (const s of [a, b]) if (s) await api.services.connection.tokens.delete(s.url);
    await api.services.connection.signOut();
    await setBaseUrl(undefined);
    await Promise.all([a?.close(), b?.close()]);
  });

  test('Sign In creates a session VS Code hears about; a second base URL is a second account', async () => {
    const api = await extensionApi();
    const accounts = api.services.accounts;
    assert.ok(accounts, 'services.accounts is not set');
    const heard: string[] = [];
    const sub = vscode.authentication.onDidChangeSessions((e) => heard.push(e.provider.id));
    try {
      await setBaseUrl(a.url);
      await signInWith(a.tokens.alice);
      let sessions = await accounts.getSessions([]);
      const first = sessions.find((s) => s.account.id === a.url);
      assert.ok(first, `no session for ${a.url}: ${sessions.map((s) => s.account.id).join(', ')}`);
      const host = new URL(a.url).host;
      const user = await orderUser(a, a.tokens.alice);
      assert.equal(first.account.label, user ? `${user} on ${host}` : host);
      assert.equal(first.accessToken, a.tokens.alice);

      await setBaseUrl(b.url);
      await signInWith(b.tokens.bob);
      sessions = await accounts.getSessions([]);
      const ids = sessions.map((s) => s.account.id);
      assert.ok(ids.includes(a.url) && ids.includes(b.url), `expected two accounts, got ${ids.join(', ')}`);
      assert.equal(new Set(sessions.map((s) => s.id)).size, sessions.length, 'session ids are not unique');
      // Asking for one account returns that account only.
      const onlyB = await accounts.getSessions([], { account: { id: b.url, label: '' } });
      assert.deepEqual(
        onlyB.map((s) => s.account.id),
        [b.url],
      );

      const deadline = Date.now() + 5_000;
      while (!heard.includes(AUTH_PROVIDER_ID) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(heard.includes(AUTH_PROVIDER_ID), 'VS Code did not hear of the new sessions (provider not registered?)');
    } finally {
      sub.dispose();
    }
  });

  test("removing a session (Accounts menu → Sign Out) deletes that URL's token and leaves the other", async () => {
    const api = await extensionApi();
    const accounts = api.services.accounts!;
    const { connection } = api.services;
    const sessions = await accounts.getSessions([]);
    const ofA = sessions.find((s) => s.account.id === a.url);
    assert.ok(ofA);
    await accounts.removeSession(ofA.id);
    assert.equal(await connection.tokens.stored(a.url), undefined, 'the token for the removed account is still stored');
    const left = (await accounts.getSessions([])).map((s) => s.account.id);
    assert.ok(!left.includes(a.url) && left.includes(b.url), `left: ${left.join(', ')}`);
    assert.equal(connection.baseUrl, b.url);
    assert.notEqual(connection.state, 'signedOut', 'removing another account signed out of the current one');
  });

  test('the Sign Out command removes the current account through the provider', async () => {
    const api = await extensionApi();
    const { connection } = api.services;
    await vscode.commands.executeCommand(COMMANDS.signOut);
    assert.equal(connection.state, 'signedOut');
    assert.equal(await connection.tokens.stored(b.url), undefined);
    const left = (await api.services.accounts!.getSessions([])).map((s) => s.account.id);
    assert.ok(!left.includes(b.url), `still listed: ${left.join(', ')}`);
  });

  test('closing the token box cancels createSession without storing anything', async () => {
    const api = await extensionApi();
    await setBaseUrl(a.url);
    const prompts = new ScriptedPrompts([{ kind: 'cancel', match: /Sign In to/ }]);
    const restore = api.testing.usePrompts(prompts);
    try {
      // The bundle's class is not the test's copy: match by name.
      await assert.rejects(api.services.accounts!.createSession([]), { name: 'SignInCancelled' });
    } finally {
      restore();
    }
    prompts.assertDone();
    assert.equal(await api.services.connection.tokens.stored(a.url), undefined);
  });

  test('the running sandbox is an account; removing it stops the sandbox', async () => {
    const api = await extensionApi();
    const prompts = new ScriptedPrompts();
    const restore = api.testing.usePrompts(prompts);
    try {
      await vscode.commands.executeCommand(COMMANDS.trySandbox);
    } finally {
      restore();
    }
    const { connection } = api.services;
    assert.ok(connection.isSandbox);
    const sessions = await api.services.accounts!.getSessions([]);
    const sandbox = sessions.find((s) => s.account.id === connection.baseUrl);
    assert.ok(sandbox, `the sandbox is not listed: ${sessions.map((s) => s.account.label).join(', ')}`);
    assert.match(sandbox.account.label, /sandbox/i);
    await api.services.accounts!.removeSession(sandbox.id);
    assert.equal(connection.isSandbox, false);
  });
});
