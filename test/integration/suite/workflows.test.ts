// Workflows, jobs and visualization styles in a real VS Code against the sandbox: the
// Projects view's Workflows rows (jobs newest first, tasks in dependency order), Run
// Workflow… priced and confirmed (declining sends nothing: the sandbox's request log is
// counted; confirming sends exactly one POST), the job followed on the advanced clock and
// announced once, a failing estimate, a 409, an empty workflow and one that does not
// validate, a job whose tasks name unknown dependencies, the job graph panel following a job,
// task logs, job and task downloads, and Save/Revert Colour Range and Export SLD.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { collect, type EoClient, type Job, type Visualization, type WorkflowListItem } from '../../../src/api';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode, RecordNode } from '../../../src/explorer/tree';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts, type Step } from '../support/scriptedPrompts';
import { until } from '../support/until';
import { testPanels } from '../support/webviewTap';

function text(item: vscode.TreeItem): string {
  const l = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  return `${l} | ${String(item.description ?? '')}`;
}

suite('workflows: rows, Run Workflow, jobs followed, graph, downloads, colour range and SLD', function () {
  this.timeout(120_000);
  const env = useSandbox();
  let client: EoClient;
  let explorer: ExplorerApi;
  let workflows: WorkflowListItem[];
  let prompts: ScriptedPrompts;
  let restore: (() => void) | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-workflows-'));

  function script(...steps: Step[]): ScriptedPrompts {
    restore?.();
    prompts = new ScriptedPrompts(steps);
    restore = env.current.api.testing.usePrompts(prompts);
    return prompts;
  }
  const named = (re: RegExp): WorkflowListItem => {
    const w = workflows.find((x) => re.test(x.name));
    assert.ok(w, `no workflow like ${re}`);
    return w;
  };
  /** Requests the sandbox received since `from` about workflow `id` (the poller may read other things meanwhile), as `METHOD /path`. */
  const sentSince = (from: number, id?: string): string[] => env.current.sandbox.requests.slice(from).filter((r) => !id || r.includes(id));
  /** A POST that creates or costs something: not a search, which the sidebar's views send as reads meanwhile. */
  const creates = (r: string): boolean => r.startsWith('POST ') && !/\/search(\?|$)/.test(r.slice(5));

  /** The workflow's row and its job rows, rendered as the tree renders them (so the poller sees them). */
  async function jobRows(w: WorkflowListItem): Promise<{ wf: ExplorerNode; rows: ExplorerNode[] }> {
    const provider = explorer.providers.projects;
    const project = await explorer.reveal('project', w.project_id, { expand: true });
    assert.ok(project);
    const group = (await provider.getChildren(project))[0];
    assert.equal(group.kind, 'workflowGroup', 'the Workflows row comes first under a project');
    provider.getTreeItem(group);
    const wf = (await provider.getChildren(group)).find((n) => (n as RecordNode).record && (n as RecordNode<WorkflowListItem>).record.id === w.id);
    assert.ok(wf, `${w.name} is not under its project`);
    provider.getTreeItem(wf);
    wf.expanded = true;
    const rows = await provider.getChildren(wf);
    for (const r of rows) provider.getTreeItem(r);
    return { wf, rows };
  }

  suiteSetup(async () => {
    client = await env.current.api.services.connection.getClient();
    explorer = env.current.api.services.explorer as ExplorerApi;
    workflows = await collect(client.workflows.iterate({}, { pageSize: 100 }));
  });
  teardown(() => {
    restore?.();
    restore = undefined;
    env.current.sandbox.faults.clear();
  });
  suiteTeardown(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a project lists its workflows; a workflow its jobs newest first in words; a job its tasks in dependency order', async () => {
    const w = named(/^Crop health of Central Valley/);
    const { wf, rows } = await jobRows(w);
    const provider = explorer.providers.projects;
    assert.match(text(provider.getTreeItem(wf)), /^Crop health of Central Valley almonds \| Weekly mosaic .* · 3 jobs, 1 running · created \d{4}-\d{2}-\d{2}$/);
    const jobs = rows.filter((r) => r.kind === 'job') as RecordNode<Job>[];
    assert.equal(jobs.length, 3);
    const times = jobs.map((j) => Date.parse(j.record.created_at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    assert.match(text(provider.getTreeItem(jobs[0])), /^Job of .+ UTC \| Running(, \d+%)? · \d+ tokens$/);
    assert.match(text(provider.getTreeItem(jobs[1])), /^Job of .+ \| Failed · \d+ tokens · \d+ (min|s)[^·]* · finished .+ UTC$/);
    const { watcher } = env.current.api.services;
    assert.ok(watcher.isFollowing('job', jobs[0].record.id), 'a running job is followed by the watcher');
    assert.ok(!watcher.isFollowing('job', jobs[2].record.id) && !explorer.poller.isWatching(jobs[2] as never), 'a finished one is not followed');
    jobs[1].expanded = true;
    const tasks = await provider.getChildren(jobs[1]);
    assert.deepEqual(
      tasks.map((t) => t.key),
      ['mosaic', 'clouds', 'water', 'field-stats', 'report'].map((n) => `task:${(jobs[1].record.tasks ?? []).find((x) => x.name === n)?.id}`),
      'dependency order',
    );
    const failed = tasks.find((t) => (t as RecordNode<{ name: string }>).record.name === 'field-stats') as ExplorerNode;
    assert.match(text(provider.getTreeItem(failed)), /^field-stats \| zonal-statistics 1\.0\.3 · Failed · \d+ s · no valid pixel/);
    const why = await provider.getChildren(failed);
    assert.match(text(provider.getTreeItem(why[0])), /^Failed: a problem with its inputs: no valid pixel in any field/);
    const skipped = tasks.find((t) => (t as RecordNode<{ name: string }>).record.name === 'report') as ExplorerNode;
    assert.match(text(provider.getTreeItem(skipped)), /· Skipped$/);
  });

  test('Run Workflow: declining the priced confirmation sends nothing but reads; a failing estimate offers no run', async () => {
    const w = named(/^Reservoir watch of Longyearbyen/);
    const from = env.current.sandbox.requests.length;
    const jobs = env.current.sandbox.state.jobs.length;
    const p = script({ kind: 'pick', match: /^Run Reservoir watch of Longyearbyen, Svalbard for about \d+ tokens\?/, choose: (items) => items[0] });
    assert.equal(await vscode.commands.executeCommand('eoImagery.runWorkflow', w), undefined);
    p.assertDone();
    const seen = prompts.seen.find((s) => s.kind === 'pick');
    assert.match(seen?.items?.[0] ?? '', /Cancel/, 'Cancel is the first, preselected choice');
    const sent = sentSince(from, w.id);
    assert.deepEqual(
      sent.map((r) => r.split(' ')[0]),
      ['GET', 'GET'],
      `the workflow and its estimate, nothing else: ${sent.join(', ')}`,
    );
    assert.match(sent[1], /\/estimate$/);
    assert.equal(env.current.sandbox.state.jobs.length, jobs);

    env.current.sandbox.faults.add({
      method: 'GET',
      path: /\/estimate$/,
      status: 500,
      count: 1,
      body: { error: { code: 'internal', message: 'pricing is down', details: '' } },
    });
    const from2 = env.current.sandbox.requests.length;
    script();
    assert.equal(await vscode.commands.executeCommand('eoImagery.runWorkflow', w), undefined);
    assert.match(
      prompts.messages.find((m) => m.severity === 'error')?.text ?? '',
      /^Pricing Reservoir watch of .+ \(nothing was run\) failed: .*pricing is down/,
    );
    assert.ok(!sentSince(from2).some(creates), 'no run without a price');
    assert.ok(!prompts.messages.some((m) => m.modal), 'no confirmation without a price');
  });

  test('Run Workflow: confirmed, exactly one POST; the job is shown, followed by the watcher with its view closed, and announced once with Show Job Graph', async () => {
    const w = named(/^Reservoir watch of Longyearbyen/);
    const from = env.current.sandbox.requests.length;
    script({ kind: 'pick', match: /for about \d+ tokens\?/, choose: (items) => items.find((i) => /Run/.test(i.label)) });
    const result = await vscode.commands.executeCommand<{ job: Job } | undefined>('eoImagery.runWorkflow', w);
    assert.ok(result?.job, JSON.stringify(prompts.messages));
    const posts = sentSince(from).filter(creates);
    assert.equal(posts.length, 1, `one POST: ${posts.join(', ')}`);
    const { rows } = await jobRows(w);
    const node = rows.find((r) => (r as RecordNode<Job>).record?.id === result.job.id) as RecordNode<Job>;
    assert.ok(node, 'the new job is listed');
    assert.equal(rows[0], node, 'newest first');
    // One follower entry for it in the watcher (not a second poll in the sidebar), in words.
    const { watcher } = env.current.api.services;
    const entries = watcher.pending().filter((p) => p.ref.kind === 'job' && p.ref.id === result.job.id);
    assert.equal(entries.length, 1, 'one follower entry');
    assert.equal(entries[0].ref.parent, w.id);
    assert.equal(entries[0].noun, 'Workflow job');
    // The person goes back to code: the sidebar closed.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    script({ kind: 'message', match: /^The job of Reservoir watch of .+ finished in /, answer: 'Show Job Graph' });
    env.current.sandbox.clock.advance(10 * 60_000);
    watcher.checkNow();
    await until('the finish notification', () => prompts.messages.some((m) => m.text.startsWith('The job of Reservoir watch')));
    assert.ok(!watcher.isFollowing('job', result.job.id), 'no longer followed once final');
    await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    const panel = await until('the graph the notification opened', () =>
      testPanels(env.current.api.services.panels).jobGraphs().get(`${w.id}/${result.job.id}`),
    );
    await panel.whenReady();
    watcher.checkNow();
    await new Promise((r) => setTimeout(r, 1500));
    const said = prompts.messages.filter((m) => m.text.startsWith('The job of Reservoir watch'));
    assert.equal(said.length, 1, 'announced once');
    assert.deepEqual(said[0].buttons, ['Show Job Graph']);
    assert.equal(said[0].severity, 'info');
    const graph = panel.posted.find((m) => (m as { type?: string }).type === 'graph') as { model: { nodes: { look: string }[]; live: boolean } };
    assert.deepEqual(
      graph.model.nodes.map((n) => n.look),
      ['success', 'success', 'success'],
    );
    panel.panel.dispose();
  });

  test('one POST per confirmation: a second run while the first is queued gets the 409, said and not resent; an empty workflow and one that does not validate are not offered', async () => {
    const w = named(/^Crop health of Paris/);
    const run = (): Thenable<{ job: Job } | undefined> => {
      script({ kind: 'pick', match: /for about \d+ tokens\?/, choose: (items) => items.find((i) => /Run/.test(i.label)) });
      return vscode.commands.executeCommand<{ job: Job } | undefined>('eoImagery.runWorkflow', w);
    };
    let from = env.current.sandbox.requests.length;
    assert.ok((await run())?.job);
    assert.equal(await run(), undefined);
    assert.match(prompts.messages.find((m) => m.severity === 'warning')?.text ?? '', /already has a job that has not finished: .*one job runs at a time/);
    assert.equal(sentSince(from, w.id).filter(creates).length, 2, 'one POST per confirmation; the 409 was not retried');

    const empty = named(/\(empty\)$/);
    from = env.current.sandbox.requests.length;
    script();
    await vscode.commands.executeCommand('eoImagery.runWorkflow', empty);
    assert.match(prompts.messages[0]?.text ?? '', /has no blocks: there is nothing to run/);
    assert.deepEqual(
      sentSince(from, empty.id).map((r) => r.split(' ')[0]),
      ['GET'],
      'read, not priced, not run',
    );

    const draft = named(/\(draft\)$/);
    from = env.current.sandbox.requests.length;
    script({ kind: 'message', match: /cannot run: its blocks do not fit together/, answer: undefined });
    await vscode.commands.executeCommand('eoImagery.runWorkflow', draft);
    prompts.assertDone();
    assert.ok(!sentSince(from).some(creates));
  });

  test('a job whose tasks name unknown dependencies: tasks in the service order under a row that says why; the graph says it too', async () => {
    const w = named(/^Land change of/);
    const jobs = await client.workflows.jobs(w.id);
    const job = await client.workflows.job(w.id, jobs[jobs.length - 1].id);
    const tasks = (job.tasks ?? []).map((t) => ({ ...t, info_logs: undefined, depends_on: t.name === 'report' ? ['change', 'publish'] : t.depends_on }));
    env.current.sandbox.faults.add({ method: 'GET', path: `/v0/workflows/${w.id}/jobs/${job.id}`, status: 200, count: 5, body: { ...job, tasks } });
    const { rows } = await jobRows(w);
    const node = rows.find((r) => (r as RecordNode<Job>).record?.id === job.id) as RecordNode<Job>;
    node.expanded = true;
    const provider = explorer.providers.projects;
    const children = await provider.getChildren(node);
    assert.match(
      text(provider.getTreeItem(children[0])),
      /^Tasks in the order the service sent them: Task "report" depends on "publish", which is not a task of this job\./,
    );
    assert.equal(children.length, tasks.length + 1);
    await vscode.commands.executeCommand('eoImagery.showJobGraph', node);
    const panel = await until('the graph panel', () => testPanels(env.current.api.services.panels).jobGraphs().get(`${w.id}/${job.id}`));
    await panel.whenReady();
    const graph = panel.posted.find((m) => (m as { type?: string }).type === 'graph') as { model: { problems: string } };
    assert.match(graph.model.problems, /"publish", which is not a task of this job/);
    panel.panel.dispose();
  });

  test('a job of 20,000 tasks listed backwards, one waiting for 120,000 names: its tasks listed in order, its graph drawn in part and said', async () => {
    // a finished job no test before has opened, so that its tasks are read (with the answer below)
    const w = named(/^Crop health of Central Valley/);
    const node = ((await jobRows(w)).rows.filter((r) => r.kind === 'job') as RecordNode<Job>[]).at(-1) as RecordNode<Job>;
    const job = await client.workflows.job(w.id, node.record.id);
    const n = 20_000;
    // as a hostile service might send it: every task before the one it waits for
    const tasks = Array.from({ length: n }, (_, k) => {
      const i = n - 1 - k;
      const depends_on = i === n - 1 ? Array.from({ length: 120_000 }, (_, j) => `step ${j % (n - 1)}`) : i > 0 ? [`step ${i - 1}`] : [];
      return { id: `id-${i}`, name: `step ${i}`, status: 'success', time_taken: '1s', block_info: { name: 'b', version: '1' }, depends_on };
    });
    env.current.sandbox.faults.add({ method: 'GET', path: `/v0/workflows/${w.id}/jobs/${job.id}`, status: 200, count: 10, body: { ...job, tasks } });
    node.expanded = true;
    const provider = explorer.providers.projects;
    const children = await provider.getChildren(node);
    assert.equal(children.length, n, 'every task, in dependency order');
    assert.match(text(provider.getTreeItem(children[0])), /^step 0 \|/);
    assert.match(text(provider.getTreeItem(children[n - 1])), /^step 19999 \|/);
    await vscode.commands.executeCommand('eoImagery.showJobGraph', node);
    const panel = await until('the graph panel', () => testPanels(env.current.api.services.panels).jobGraphs().get(`${w.id}/${job.id}`));
    await panel.whenReady();
    const graph = panel.posted.find((m) => (m as { type?: string }).type === 'graph') as {
      model: { nodes: { name: string; dependsOn: string }[]; drawn: number; drawnNote: string; edges: unknown[]; problems: string };
    };
    assert.equal(graph.model.problems, '');
    assert.equal(graph.model.nodes.length, n, 'the list names every task');
    assert.equal(graph.model.drawn, 100);
    assert.ok(graph.model.edges.length <= 200);
    assert.match(graph.model.drawnNote, /^The graph draws the first 100 of the 20,000 tasks in dependency order; the list below names every task\.$/);
    assert.equal(graph.model.nodes[n - 1].dependsOn, 'step 0, step 1, step 2, step 3, step 4 and 19,994 more');
    panel.panel.dispose();
  });

  test('Show Job Graph follows a running job live; Open Task Log; Download Job and Task save real files', async () => {
    // the job the test before started, still queued or running on the clock
    const w = named(/^Crop health of Paris/);
    const { rows } = await jobRows(w);
    const running = rows[0] as RecordNode<Job>;
    assert.ok(['queued', 'running'].includes(running.record.status), running.record.status);
    await vscode.commands.executeCommand('eoImagery.showJobGraph', running);
    const panel = await until('the graph panel', () => testPanels(env.current.api.services.panels).jobGraphs().get(`${w.id}/${running.record.id}`));
    await panel.whenReady();
    // each read of the job the panel makes is drawn again: a graph posted to the page
    const graphs = () => panel.posted.filter((m) => (m as { type?: string }).type === 'graph').length;
    const drawn = graphs();
    env.current.sandbox.clock.advance(60_000);
    await until('a live read of the job', () => graphs() > drawn, 20_000);
    panel.panel.dispose();

    const done = rows.find((r) => (r as RecordNode<Job>).record?.status === 'success') as RecordNode<Job>;
    done.expanded = true;
    const tasks = await explorer.providers.projects.getChildren(done);
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('eoImagery.openTaskLog', tasks[0]);
    assert.match(editor.document.getText(), /^Task: mosaic\nBlock: mosaic-builder 1\.4\.0\n[\s\S]*queued mosaic[\s\S]*done in \d+s/);
    assert.equal(editor.document.uri.scheme, 'eo-imagery-task');

    script({ kind: 'openDialog', match: /Folder to save the job of Crop health of Paris/, answer: [vscode.Uri.file(dir)] });
    const jobFile = await vscode.commands.executeCommand<string>('eoImagery.downloadJob', done);
    assert.ok(jobFile && fs.readFileSync(jobFile).subarray(0, 2).toString('latin1') === 'PK', String(jobFile));
    script({ kind: 'openDialog', match: /Folder to save task mosaic of/, answer: [vscode.Uri.file(dir)] });
    const taskFile = await vscode.commands.executeCommand<string>('eoImagery.downloadTask', tasks[0]);
    assert.ok(taskFile && fs.readFileSync(taskFile).includes(Buffer.from('logs.txt')), String(taskFile));
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => /\.part$|\.tmp/.test(f)),
      [],
      'no partial files left',
    );
  });

  test('Save Colour Range from the map changes the service rendering; Revert gives it back; Export SLD writes the legend as XML', async () => {
    let vis: Visualization | undefined;
    let date = '';
    for (const a of await collect(client.aois.iterate({}, { pageSize: 100 }))) {
      if (a.satellite_id !== 'sentinel-2') continue;
      vis = (await client.visualizations.listPage(a.aoi_id, { limit: 100 })).items.find((v) => /^preset-ndvi-/.test(v.index_id));
      const asset = vis ? (await client.aois.assetsPage(a.aoi_id, { limit: 100 })).items.find((x) => x.visualization_id === vis?.id) : undefined;
      if (vis && asset) {
        date = asset.date;
        break;
      }
    }
    assert.ok(vis && date);
    const render = () => client.visualizationPng.render(vis.aoi_id, vis.id, { index_id: vis.index_id, date, mode: 'theoretical' });
    const before = (await render()).bytes;
    script(
      { kind: 'pick', match: /Which legend/, choose: (items) => items.find((i) => /Theoretical/.test(i.label)) },
      { kind: 'pickMany', match: /Dates to apply it to/, choose: (items) => items.filter((i) => i.picked) },
    );
    const saved = await vscode.commands.executeCommand<{ dates: string[] }>('eoImagery.saveColourRange', {
      visualization: { aoiId: vis.aoi_id, id: vis.id },
      date,
      rescale: [0.1, 0.5],
      colormap: 'RdYlGn',
    });
    prompts.assertDone();
    assert.deepEqual(saved?.dates, [date], 'the layer’s date was the one picked');
    const after = (await render()).bytes;
    assert.ok(!after.equals(before), 'the service rendering changed');

    const target = vscode.Uri.file(path.join(dir, 'ndvi.sld'));
    script(
      { kind: 'pick', match: /Date of the imagery/, choose: (items) => items.find((i) => i.label === date) },
      { kind: 'pick', match: /Which legend/, choose: (items) => items.find((i) => /Theoretical/.test(i.label)) },
      {
        kind: 'saveDialog',
        match: /Export SLD Style/,
        answer: (suggested) => (assert.match(suggested?.path ?? '', /NDVI - \d{4}-\d{2}-\d{2} - theoretical\.sld$/), target),
      },
    );
    await vscode.commands.executeCommand('eoImagery.exportSld', { kind: 'visualization', record: vis });
    prompts.assertDone();
    const xml = fs.readFileSync(target.fsPath, 'utf8');
    assert.match(xml, /^<\?xml[^>]*\?>\s*<StyledLayerDescriptor /);
    assert.equal((xml.match(/<ColorMapEntry /g) ?? []).length, 6, 'a transparent entry and five classes');
    assert.match(xml, /quantity="0\.5"/);

    script(
      { kind: 'pick', match: /Which legend/, choose: (items) => items.find((i) => /Theoretical/.test(i.label)) },
      { kind: 'pickMany', match: /Dates to apply it to/, choose: (items) => items.filter((i) => i.label === date) },
      { kind: 'message', match: /^Revert the theoretical legend of NDVI on /, answer: 'Revert' },
    );
    await vscode.commands.executeCommand('eoImagery.revertColourRange', { kind: 'visualization', record: vis });
    prompts.assertDone();
    assert.ok((await render()).bytes.equals(before), 'the service’s own rendering again');
  });
});
