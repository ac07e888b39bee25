// Cloud stores through the prompt seam: register (type → configs → secrets → labels), a 409
// that explains the name is taken and keeps every entry, secrets kept out of responses and
// settings, and delete behind a modal that names the store.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Store } from '../../../src/api';
import { COMMANDS } from '../../../src/commandIds';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts, type Step } from '../support/scriptedPrompts';
import { client, runScripted } from './ordersSupport';

const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';

function s3Script(name: string): Step[] {
  return [
    { kind: 'pick', match: /Kind of cloud store/, choose: 'S3' },
    { kind: 'input', match: /Name of the store/, answer: name },
    { kind: 'input', match: /S3 bucket/, answer: 'eo-integration-bucket' },
    { kind: 'input', match: /S3 region/, answer: 'eu-west-1' },
    { kind: 'input', match: /Folder prefix inside the bucket \(optional\)/, answer: 'imagery/' },
    { kind: 'input', match: /Access key ID for the Amazon S3 bucket/, answer: 'AKIAEXAMPLE' },
    { kind: 'input', match: /Secret access key for the Amazon S3 bucket/, answer: SECRET },
    { kind: 'input', match: /Labels/, answer: 'team=geo, env=test' },
  ];
}

suite('stores: register and delete cloud stores against the sandbox', function () {
  this.timeout(60_000);
  const sb = useSandbox();

  test('registers an S3 store with its labels; the secret is in no response, setting or state', async () => {
    const conn = sb.current;
    const prompts = new ScriptedPrompts(s3Script('integration-s3'));
    const store = await runScripted<Store | undefined>(conn, prompts, COMMANDS.registerStore);
    prompts.assertDone();
    assert.ok(store, 'no store returned');
    assert.equal(store.type, 'S3');
    assert.deepEqual(store.labels, { team: 'geo', env: 'test' });
    assert.deepEqual(store.configs, { bucket: 'eo-integration-bucket', region: 'eu-west-1', path_prefix: 'imagery/' });
    const listed = (await (await client(conn)).stores.list()).find((s) => s.id === store.id);
    assert.ok(listed);
    assert.ok(!JSON.stringify(listed).includes(SECRET), 'the secret came back from the service');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('eoImagery')).includes(SECRET), 'the secret is in settings');
    const { globalState, workspaceState } = conn.api.services.context;
    for (const memento of [globalState, workspaceState]) {
      for (const key of memento.keys()) assert.ok(!JSON.stringify(memento.get(key) ?? null).includes(SECRET), `the secret is in state ${key}`);
    }
    assert.ok(!prompts.messages.some((m) => m.text.includes(SECRET)), 'the secret was shown in a message');
    // Numbered as met: before the provider is picked only the steps every store has count; S3's
    // eight then follow one another with no gap (Azure's two secrets take no number).
    const positions = prompts.seen.map((p) => /\((\d+)\/(\d+)\)/.exec(p.label)?.slice(1).join('/'));
    assert.deepEqual(positions, ['1/3', '2/8', '3/8', '4/8', '5/8', '6/8', '7/8', '8/8']);
    assert.ok(!prompts.seen.some((p) => /access_key|secret_access/.test(p.label)), 'a prompt shows a field name');
  });

  test('a name already taken is refused as it is typed, before any other entry is asked', async () => {
    const conn = sb.current;
    await (
      await client(conn)
    ).stores.create({
      name: 'integration-early',
      type: 'GCS',
      configs: { bucket: 'b', region: 'europe-west4' },
      secrets: { project_id: 'p', service_account_credentials: '{}' },
    });
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Kind of cloud store/, choose: 'S3' },
      { kind: 'input', match: /Name of the store/, answer: 'integration-early', rejects: /already have a store named "integration-early"/ },
    ]);
    assert.equal(await runScripted(conn, prompts, COMMANDS.registerStore), undefined);
    prompts.assertDone();
  });

  test('a taken name (409) says so and keeps every entry: only the name is asked again', async () => {
    const conn = sb.current;
    const prompts = new ScriptedPrompts([...s3Script('integration-dup')]);
    await runScripted(conn, prompts, COMMANDS.registerStore);
    prompts.assertDone();
    // The name is free while it is typed and taken before the store is sent (another window
    // registered it meanwhile): the service's 409 is the last word.
    const script = s3Script('integration-dup-race');
    const labels = script[script.length - 1];
    assert.equal(labels.kind, 'input');
    const c = await client(conn);
    const race = {
      ...labels,
      before: () =>
        c.stores.create({
          name: 'integration-dup-race',
          type: 'GCS',
          configs: { bucket: 'b', region: 'europe-west4' },
          secrets: { project_id: 'p', service_account_credentials: '{}' },
        }),
    } as Step;
    const again = new ScriptedPrompts([
      ...script.slice(0, -1),
      race,
      { kind: 'message', match: /"integration-dup-race" is already taken/, answer: 'Edit Entries…' },
      { kind: 'pick', match: /Which entry/, choose: 'Name' },
      { kind: 'input', match: /Name of the store/, answer: 'integration-dup-2' },
    ]);
    const store = await runScripted<Store | undefined>(conn, again, COMMANDS.registerStore);
    again.assertDone();
    assert.equal(store?.name, 'integration-dup-2');
    assert.equal(store?.configs.bucket, 'eo-integration-bucket', 'the configs were not kept');
  });

  test('a GCS store asks for bucket and region (the OpenAPI form); an empty folder prefix is not sent', async () => {
    const conn = sb.current;
    const gcs = new ScriptedPrompts([
      { kind: 'pick', match: /Kind of cloud store/, choose: 'GCS' },
      { kind: 'input', match: /Name of the store/, answer: 'integration-gcs-2' },
      { kind: 'input', match: /GCS bucket/, answer: 'g-bucket' },
      { kind: 'input', match: /GCS bucket location/, answer: 'europe-west4' },
      { kind: 'input', match: /Folder prefix inside the bucket \(optional\)/, answer: '' },
      { kind: 'input', match: /Google Cloud project ID/, answer: 'my-project' },
      { kind: 'input', match: /Service account key/, answer: '{"type":"service_account"}' },
      { kind: 'input', match: /Labels/, answer: 'a=b' },
    ]);
    const store = await runScripted<Store | undefined>(conn, gcs, COMMANDS.registerStore);
    gcs.assertDone();
    assert.equal(store?.type, 'GCS');
    assert.deepEqual(store?.configs, { bucket: 'g-bucket', region: 'europe-west4' });
  });

  test('delete asks in a modal naming the store; Cancel keeps it, Delete removes it', async () => {
    const conn = sb.current;
    const c = await client(conn);
    const store = await c.stores.create({
      name: 'to-delete',
      type: 'AZBLOB',
      configs: { bucket: 'c', region: 'westeurope', path_prefix: 'p' },
      secrets: { account_name: 'a', tenant_id: 't', client_id: 'c', client_secret: 's' },
    });
    const cancel = new ScriptedPrompts([{ kind: 'message', match: /Delete the cloud store "to-delete"\?/, answer: undefined }]);
    assert.equal(await runScripted(conn, cancel, COMMANDS.deleteStore, { kind: 'store', record: store }), false);
    cancel.assertDone();
    assert.ok(
      (await c.stores.list()).some((s) => s.id === store.id),
      'cancelled but deleted',
    );
    const confirm = new ScriptedPrompts([{ kind: 'message', match: /Delete the cloud store "to-delete"\?/, answer: 'Delete' }]);
    assert.equal(await runScripted(conn, confirm, COMMANDS.deleteStore, { kind: 'store', record: store }), true);
    confirm.assertDone();
    assert.ok(!(await c.stores.list()).some((s) => s.id === store.id), 'not deleted');
  });
});
