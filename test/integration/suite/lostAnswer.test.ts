// A lost answer never spends twice, for insight runs and workflow jobs (orders: orders.test.ts).
// Through the fault proxy's lostAnswer toxic the sandbox starts the run or job and the
// connection is reset before a byte of its answer comes back: exactly one POST reaches the
// sandbox, and the person is told what was started, by name and id. When the sandbox resets the
// connection without acting, the person is told nothing was started, and "Run Again…" prices
// and asks again, Cancel first.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { collect, type Aoi, type Asset, type EoClient, type Job, type WorkflowListItem } from '../../../src/api';
import { FaultProxy } from '../../support/faultProxy';
import { connectToSandbox, useSandbox } from '../harness/sandbox';
import { remove, scriptedSuite } from '../support/run';
import { waterExtentAoi, writeWaterExtent } from '../support/waterExtent';

interface Extras {
  faults: { add(rule: { method?: string; path: string | RegExp; status: number; reset?: boolean; count?: number }): void; clear(): void };
  state: { insights: { id: string; name: string }[] };
  requests: string[];
}

suite('lost answers: insight runs and workflow jobs through the fault proxy', function () {
  this.timeout(120_000);
  const env = useSandbox();
  const scripts = scriptedSuite(env);
  const script = scripts.script;
  let client: EoClient;
  let extras: Extras;
  let aoi: Aoi;
  let asset: Asset;
  let workflows: WorkflowListItem[];
  let proxy: FaultProxy | undefined;
  const files: vscode.Uri[] = [];

  /** The extension talks to the sandbox through a fresh proxy, which logs every request. */
  async function throughProxy(): Promise<FaultProxy> {
    proxy = await FaultProxy.start({ upstream: env.current.sandbox.url });
    await connectToSandbox({ ...env.current.sandbox, url: proxy.url });
    return proxy;
  }

  async function writeInsight(name: string): Promise<vscode.Uri> {
    const uri = await writeWaterExtent(name, asset);
    files.push(uri);
    return uri;
  }

  /** The extension's client now (reconnecting closes the one before). */
  const fresh = (): Promise<EoClient> => env.current.api.services.connection.getClient();
  const shown = (): string => JSON.stringify(scripts.prompts.messages.map((m) => m.text));

  suiteSetup(async () => {
    client = await env.current.api.services.connection.getClient();
    extras = env.current.sandbox as unknown as Extras;
    ({ aoi, asset } = await waterExtentAoi(client));
    workflows = await collect(client.workflows.iterate({}, { pageSize: 100 }));
  });
  teardown(async () => {
    extras.faults.clear();
    if (proxy) {
      await connectToSandbox(env.current.sandbox);
      await proxy.close();
      proxy = undefined;
    }
  });
  suiteTeardown(async () => {
    for (const f of files) await remove(f);
  });

  test('an insight run whose answer is lost: one POST, and the message names the run started', async () => {
    const uri = await writeInsight('lost-run');
    const p = await throughProxy();
    const before = extras.state.insights.length;
    const prompts = script(
      { kind: 'pick', match: 'AOI', choose: (items) => items.find((i) => i.label === aoi.name) },
      {
        kind: 'pick',
        match: /^Run lost-run \(water-extent 0\.9\.1\) on .+ for about \d+ tokens\?/,
        choose: (items) => {
          // After the estimate (a POST to the same path): the run is started, its answer lost.
          p.add({ method: 'POST', path: new RegExp(`^/v0/aoi/${aoi.aoi_id}/insights$`), times: 1, toxic: { kind: 'lostAnswer' } });
          return items.find((i) => /Run/.test(i.label));
        },
      },
    );
    const id = await vscode.commands.executeCommand<string | undefined>('eoImagery.runInsight', uri);
    prompts.assertDone();
    const posts = p.log.filter((r) => r.method === 'POST' && r.path.startsWith(`/v0/aoi/${aoi.aoi_id}/insights`));
    // The estimate, then the one real POST: never a second one.
    assert.deepEqual(
      posts.map((r) => r.toxic),
      [undefined, 'lostAnswer'],
    );
    assert.equal(extras.state.insights.length - before, 1, 'exactly one run stored');
    const stored = extras.state.insights.at(-1);
    assert.ok(id && id === stored?.id, `the command returns the run the service started; shown: ${shown()}`);
    const told = scripts.prompts.messages.find((m) => /answer was lost.*has the run/.test(m.text));
    assert.ok(told, `no "has the run" message: ${shown()}`);
    assert.ok(told.text.includes(id) && told.text.includes('lost-run') && told.text.includes(aoi.name), told.text);
    assert.ok(!scripts.prompts.messages.some((m) => m.buttons.includes('Retry')), 'Retry offered after a spending POST');
    assert.ok(env.current.api.services.watcher.isFollowing('insightRun', id), 'followed in What is pending');
  });

  test('an insight run reset before the service acted: "nothing was started", Run Again prices and asks again, Cancel first', async () => {
    const uri = await writeInsight('unlucky-run');
    const before = extras.state.insights.length;
    let confirmations = 0;
    const run = (items: readonly vscode.QuickPickItem[]): vscode.QuickPickItem | undefined => {
      confirmations++;
      extras.faults.add({ method: 'POST', path: new RegExp(`^/v0/aoi/${aoi.aoi_id}/insights$`), status: 500, reset: true, count: 1 });
      return items.find((i) => /Run/.test(i.label));
    };
    const prompts = script(
      { kind: 'pick', match: 'AOI', choose: (items) => items.find((i) => i.label === aoi.name) },
      { kind: 'pick', match: /^Run unlucky-run .+ tokens\?/, choose: run },
      { kind: 'message', match: /did not answer.*nothing was started\. Run it again\?/, answer: 'Run Again…' },
      // The priced confirmation again; its first (default) row is Cancel.
      {
        kind: 'pick',
        match: /^Run unlucky-run .+ tokens\?/,
        choose: (items) => {
          confirmations++;
          return items[0];
        },
      },
    );
    assert.equal(await vscode.commands.executeCommand('eoImagery.runInsight', uri), undefined);
    prompts.assertDone();
    assert.equal(confirmations, 2, 'the priced confirmation was not shown again');
    assert.match(scripts.prompts.seen.filter((s) => s.kind === 'pick').at(-1)?.items?.[0] ?? '', /Cancel/);
    assert.equal(extras.state.insights.length, before, 'the POST was retried or stored');
  });

  test('a workflow job whose answer is lost: one POST, and the message names the job started', async () => {
    const w = workflows.find((x) => /^Reservoir watch of Longyearbyen/.test(x.name));
    assert.ok(w, 'no Reservoir watch workflow');
    const p = await throughProxy();
    const jobsBefore = (await (await fresh()).workflows.jobs(w.id)).length;
    script({
      kind: 'pick',
      match: /^Run Reservoir watch of .+ for about \d+ tokens\?/,
      choose: (items) => {
        p.add({ method: 'POST', path: new RegExp(`^/v0/workflows/${w.id}/jobs`), times: 1, toxic: { kind: 'lostAnswer' } });
        return items.find((i) => /Run/.test(i.label));
      },
    });
    const result = await vscode.commands.executeCommand<{ job: Job } | undefined>('eoImagery.runWorkflow', w);
    const posts = p.log.filter((r) => r.method === 'POST' && r.path.startsWith(`/v0/workflows/${w.id}/jobs`));
    assert.deepEqual(
      posts.map((r) => r.toxic),
      ['lostAnswer'],
      'one POST, never a second',
    );
    const jobs = await (await fresh()).workflows.jobs(w.id);
    assert.equal(jobs.length - jobsBefore, 1, 'exactly one job stored');
    assert.ok(result?.job && result.job.id === jobs[0].id, `the command returns the job the service started; shown: ${shown()}`);
    const told = scripts.prompts.messages.find((m) => /answer was lost.*has the job/.test(m.text));
    assert.ok(told, `no "has the job" message: ${shown()}`);
    assert.ok(told.text.includes(result.job.id) && told.text.includes(w.name), told.text);
    assert.ok(!scripts.prompts.messages.some((m) => m.buttons.includes('Retry')), 'Retry offered after a spending POST');
    assert.ok(env.current.api.services.watcher.isFollowing('job', result.job.id), 'followed in What is pending');
  });

  test('a workflow job reset before the service acted: "nothing was started", Run Again prices and asks again, Cancel first', async () => {
    const w = workflows.find((x) => /^Land change of/.test(x.name));
    assert.ok(w, 'no Land change workflow');
    const jobsBefore = (await (await fresh()).workflows.jobs(w.id)).length;
    const from = extras.requests.length;
    let confirmations = 0;
    const prompts = script(
      {
        kind: 'pick',
        match: /for about \d+ tokens\?/,
        choose: (items) => {
          confirmations++;
          extras.faults.add({ method: 'POST', path: new RegExp(`^/v0/workflows/${w.id}/jobs`), status: 500, reset: true, count: 1 });
          return items.find((i) => /Run/.test(i.label));
        },
      },
      { kind: 'message', match: /did not answer.*has no new job: nothing was started\. Run it again\?/, answer: 'Run Again…' },
      {
        kind: 'pick',
        match: /for about \d+ tokens\?/,
        choose: (items) => {
          confirmations++;
          return items[0];
        },
      },
    );
    assert.equal(await vscode.commands.executeCommand('eoImagery.runWorkflow', w), undefined);
    prompts.assertDone();
    assert.equal(confirmations, 2, 'the priced confirmation was not shown again');
    assert.match(scripts.prompts.seen.filter((s) => s.kind === 'pick').at(-1)?.items?.[0] ?? '', /Cancel/);
    assert.equal((await (await fresh()).workflows.jobs(w.id)).length, jobsBefore, 'a job was stored');
    assert.equal(extras.requests.slice(from).filter((r) => r.startsWith(`POST /v0/workflows/${w.id}/jobs`)).length, 1, 'the POST was sent again');
  });
});
