// The command wrapper (src/commands/register.ts) in a real VS Code: a cancelled command shows
// nothing; a failed one shows one error with the buttons its failure calls for (Sign In, Retry,
// Show Log) and writes one line to the log; Retry runs the same handler again with the same
// arguments, offered only on a failure that may pass and only by a command that neither
// creates nor costs anything. Commands of this suite's own go through the wrapper's compiled
// module with the extension's services; the extension's own commands (Show Imagery, Order
// Archive Imagery) are driven against the sandbox with faults. The argument readers are
// checked against `CommandArgs`, what the extension itself passes to its commands.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiError, Cancelled, NotSignedInError } from '../../../src/api';
import type { ArgsOf, CommandArgs } from '../../../src/commandIds';
import { READERS } from '../../../src/commands/args';
import { registerHandler, type RetryPolicy } from '../../../src/commands/register';
import { useSandbox } from '../harness/sandbox';
import { client, handle, HookedPrompts, runScripted } from './ordersSupport';

const SERVICE_DOWN = (): ApiError => new ApiError({ kind: 'http', method: 'GET', path: '/v0/things', status: 503, detailMessage: 'down for a minute' });

suite('command wrapper: cancellation, one error with its buttons, Retry only where safe', function () {
  this.timeout(60_000);
  const sb = useSandbox();
  const registered: vscode.Disposable[] = [];
  let logged: string[] = [];
  let restoreLog: (() => void) | undefined;

  setup(() => {
    // Every line the extension writes at error level, in order (the wrapper must write one).
    const log = sb.current.api.services.log;
    const original = log.error;
    logged = [];
    log.error = (message: string | Error, ...args: unknown[]) => {
      logged.push(String(message));
      original.call(log, message, ...args);
    };
    restoreLog = () => (log.error = original);
  });

  teardown(() => {
    restoreLog?.();
    handle(sb.current).faults.clear();
    registered.splice(0).forEach((d) => d.dispose());
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  let next = 0;
  /** Registers `run` through the wrapper under a command id of this suite; returns the id and the arguments of each run. */
  function command(retry: RetryPolicy, run: (calls: number) => unknown): { id: string; seen: unknown[][] } {
    const id = `eoImagery.test.wrapper${next++}`;
    const seen: unknown[][] = [];
    registered.push(
      registerHandler(sb.current.api.services, id, (...args: unknown[]) => args, {
        action: 'Test the wrapper',
        retry,
        run: (args) => {
          seen.push(args);
          return run(seen.length);
        },
      }),
    );
    return { id, seen };
  }

  test('a cancelled command shows nothing and logs nothing: Escape on a step, an aborted request', async () => {
    for (const err of [
      new Cancelled(),
      new ApiError({ kind: 'aborted', method: 'GET', path: '/v0/x', detailMessage: 'aborted' }),
      new vscode.CancellationError(),
    ]) {
      const { id } = command('transient', () => Promise.reject(err));
      const prompts = new HookedPrompts();
      assert.equal(await runScripted(sb.current, prompts, id), undefined);
      assert.deepEqual(prompts.messages, [], `${err.name} showed a message`);
      assert.deepEqual(logged, [], `${err.name} was logged`);
    }
  });

  test('a failure shows one error with the way forward its kind calls for, and one log line', async () => {
    const cases: { err: unknown; buttons: string[] }[] = [
      { err: SERVICE_DOWN(), buttons: ['Retry', 'Show Log'] },
      { err: new NotSignedInError('noToken'), buttons: ['Sign In', 'Try the Sandbox', 'Show Log'] },
      {
        err: new ApiError({ kind: 'http', method: 'GET', path: '/v0/things', status: 401, detailMessage: 'token expired' }),
        buttons: ['Sign in again', 'Show Log'],
      },
      { err: new ApiError({ kind: 'http', method: 'GET', path: '/v0/things', status: 404, detailMessage: 'no such thing' }), buttons: ['Show Log'] },
      { err: new Error('the disk is full'), buttons: ['Show Log'] },
    ];
    for (const { err, buttons } of cases) {
      logged = [];
      const { id } = command('transient', () => {
        throw err;
      });
      const prompts = new HookedPrompts();
      await runScripted(sb.current, prompts, id);
      assert.equal(prompts.messages.length, 1, `${String(err)}: ${prompts.messages.map((m) => m.text).join(' | ')}`);
      const [shown] = prompts.messages;
      assert.equal(shown.severity, 'error');
      assert.match(shown.text, /^Test the wrapper failed: /);
      assert.deepEqual(shown.buttons, buttons, String(err));
      assert.deepEqual(logged, [shown.text], 'logged once, as shown');
    }
  });

  test('Retry runs the same handler again with the same arguments, and its outcome stands', async () => {
    const { id, seen } = command('transient', (calls) => {
      if (calls === 1) throw SERVICE_DOWN();
      return 'done';
    });
    const prompts = new HookedPrompts([{ kind: 'message', match: /^Test the wrapper failed/, answer: 'Retry' }]);
    const arg = { kind: 'aoi', record: { aoi_id: 'a1' } };
    await runScripted(sb.current, prompts, id, arg, 7);
    prompts.assertDone();
    assert.equal(seen.length, 2, 'Retry did not run the handler again');
    assert.deepEqual(seen[1], seen[0]);
    assert.deepEqual(seen[0], [arg, 7]);
    assert.equal(prompts.messages.length, 1, 'the second run succeeded: nothing more is shown');
    assert.equal(logged.length, 1);
  });

  test('a command that creates or costs never offers Retry, even on a failure that may pass', async () => {
    const { id, seen } = command('never', () => {
      throw SERVICE_DOWN();
    });
    const prompts = new HookedPrompts();
    await runScripted(sb.current, prompts, id);
    assert.deepEqual(
      prompts.messages.map((m) => m.buttons),
      [['Show Log']],
    );
    assert.equal(seen.length, 1);
  });

  test('Show Imagery (a read): an unreachable archive offers Retry, which draws the item once the service is back', async () => {
    const conn = sb.current;
    const item = (await (await client(conn)).archives.search({ limit: 1 })).features[0];
    assert.ok(item, 'the sandbox archive is empty');
    const itemPath = `/v0/archives/collections/${item.collection}/items/${item.id}`;
    const reads: (number | undefined)[] = [];
    const sub = conn.api.services.connection.onDidRequest((e) => {
      if (e.path === itemPath) reads.push(e.status);
    });
    // More 503s than the client's own retries of a GET: the command itself fails.
    handle(conn).faults.add({ method: 'GET', path: itemPath, status: 503, count: 50 });
    const prompts = new HookedPrompts([{ kind: 'message', match: /^Show Imagery failed: /, answer: 'Retry' }]);
    prompts.onMessage = (text) => {
      if (text.startsWith('Show Imagery failed')) handle(conn).faults.clear();
    };
    try {
      await runScripted(conn, prompts, 'eoImagery.showImagery', { collection: item.collection, id: item.id });
    } finally {
      sub.dispose();
    }
    prompts.assertDone();
    const errors = prompts.messages.filter((m) => m.severity === 'error');
    assert.equal(errors.length, 1);
    assert.deepEqual(errors[0].buttons, ['Retry', 'Show Log']);
    assert.equal(logged.filter((l) => l.startsWith('Show Imagery failed')).length, 1, 'logged once');
    assert.ok(reads.includes(503), `the fault was not hit: ${reads.join(', ')}`);
    assert.equal(reads.at(-1), 200, `Retry did not read the item again: ${reads.join(', ')}`);
    assert.equal(reads.filter((s) => s === 200).length, 1);
  });

  test('Order Archive Imagery (costs money): the same fault offers no Retry, and nothing is ordered', async () => {
    const conn = sb.current;
    const item = (await (await client(conn)).archives.search({ limit: 1 })).features[0];
    const itemPath = `/v0/archives/collections/${item.collection}/items/${item.id}`;
    const before = handle(conn).state.orders.length;
    handle(conn).faults.add({ method: 'GET', path: itemPath, status: 503, count: 50 });
    const prompts = new HookedPrompts();
    // A reference without a footprint: the item is read first, and that read fails.
    assert.equal(await runScripted(conn, prompts, 'eoImagery.orderArchiveItems', { collection: item.collection, id: item.id }), undefined);
    assert.deepEqual(
      prompts.messages.map((m) => [m.text.replace(/: .*/, ''), m.buttons]),
      [['Reading the archive items failed', ['Show Log']]],
    );
    assert.equal(handle(conn).state.orders.length, before);
  });

  test('every argument the extension passes to its own commands (CommandArgs) reads into a value', () => {
    const uri = vscode.Uri.file('/tmp/search.eosearch.json');
    const item = { type: 'Feature', collection: 'sentinel-2-l2a', id: 'S2A_1', geometry: { type: 'Point', coordinates: [0, 0] }, properties: {} };
    const run = { id: 'r1', aoi_id: 'a1', name: 'run', output: [] };
    // The compiler holds this table to CommandArgs: a command added there must be added here.
    const samples: { [K in keyof CommandArgs]: ArgsOf<K> } = {
      orderArchiveItems: [[item, { collection: 'c', id: 'i2' }]],
      copyStacUrl: [{ collection: 'c', id: 'i' }],
      showImagery: [item as never],
      newInsightInput: [{ insightOutput: { run: run as never, outputName: 'water' } }],
      showInsightOutputs: [{ aoiId: 'a1', id: 'r1' }],
      downloadReport: ['UTC'],
      runSearchFile: [uri],
      pricePlan: [uri],
      placePlan: [uri],
      saveOrderPlan: [{ items: [{ usecase: 'general' }], labels: { project: 'Vineyards' } }],
      searchFileWhatsNew: [uri],
      saveColourRange: [{ visualization: { aoiId: 'a1', id: 'v1' }, date: '2026-06-01', rescale: [0.1, 0.5], colormap: 'RdYlGn' }],
      openTaskLog: [{ workflowId: 'w1', workflowName: 'Water', job: { id: 'j1' }, task: { id: 't1', name: 'clip' } }],
      showOnMap: [{ kind: 'orderItem', record: { id: 'oi1', name: 'Lake X' } }],
      deliver: [{ orderItemIds: ['oi1'], names: ['Lake X'] }],
      download: [{ orderItemIds: ['oi1'], names: ['Lake X'] }],
      saveReadyDownload: [{ downloadId: 'd1', what: 'order item Lake X' }],
      openViewLink: ['vscode://eo-imagery.eo-imagery/view?v=e30'],
      chartIndexOverTime: [{ kind: 'pixel', lon: -120.5, lat: 36.7, aoiId: 'a1' }],
      showJobGraph: [{ workflowId: 'wf-1', jobId: 'job-1', workflowName: 'NDVI weekly' }],
    };
    const read = (name: keyof CommandArgs): unknown => (READERS[name] as (...a: unknown[]) => unknown)(...samples[name]);
    assert.equal((read('orderArchiveItems') as unknown[]).length, 2);
    assert.deepEqual(read('copyStacUrl'), { collection: 'c', id: 'i', item: undefined });
    assert.deepEqual(read('showImagery'), { record: item });
    assert.equal((read('newInsightInput') as { output?: { outputName: string } }).output?.outputName, 'water');
    assert.deepEqual(read('showInsightOutputs'), { ref: { aoiId: 'a1', id: 'r1' } });
    assert.equal(read('downloadReport'), 'UTC');
    assert.equal(read('runSearchFile'), uri);
    assert.equal(read('pricePlan'), uri);
    assert.equal(read('placePlan'), uri);
    assert.deepEqual(read('saveOrderPlan'), { items: [{ usecase: 'general' }], labels: { project: 'Vineyards' } });
    assert.equal(read('searchFileWhatsNew'), uri);
    assert.deepEqual(read('saveColourRange'), { visualization: { aoiId: 'a1', id: 'v1' }, date: '2026-06-01', rescale: [0.1, 0.5], colormap: 'RdYlGn' });
    assert.deepEqual(read('openTaskLog'), { workflowId: 'w1', workflowName: 'Water', job: { id: 'j1' }, task: { id: 't1', name: 'clip' } });
    assert.deepEqual(read('showOnMap'), { kind: 'orderItem', record: { id: 'oi1', name: 'Lake X' } });
    assert.deepEqual(read('deliver'), { orderItemIds: ['oi1'], names: ['Lake X'] });
    assert.deepEqual(read('download'), { orderItemIds: ['oi1'], names: ['Lake X'] });
    assert.deepEqual(read('saveReadyDownload'), { downloadId: 'd1', what: 'order item Lake X' });
    assert.equal(read('openViewLink'), 'vscode://eo-imagery.eo-imagery/view?v=e30');
    assert.deepEqual(read('chartIndexOverTime'), { kind: 'pixel', lon: -120.5, lat: 36.7, aoiId: 'a1' });
    assert.deepEqual(read('showJobGraph'), { workflowId: 'wf-1', jobId: 'job-1', workflowName: 'NDVI weekly' });
    // Nothing from the palette: every reader copes, and none invents a record.
    const empty = (v: unknown): boolean =>
      v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(empty));
    for (const [name, reader] of Object.entries(READERS)) {
      const input = (reader as (...a: unknown[]) => unknown)();
      assert.ok(empty(input), `${name} read something from no arguments: ${JSON.stringify(input)}`);
    }
  });
});
