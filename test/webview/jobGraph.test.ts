/**
 * The job graph webview in headless Chromium: the extension's model (src/panels/jobGraph/model.ts)
 * laid out by dagre, dependencies left of the tasks that wait for them, colours by status
 * that keep their text readable in a dark, a light and a high-contrast theme, the keyboard, a
 * graph whose dependencies cannot all be drawn, and service text that stays text.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Job, JobTask } from '../../src/api/records';
import { jobGraphModel } from '../../src/panels/jobGraph/model';
import { reversedChain, wide } from '../fixtures/hostileLists';
import { closeBrowser, isType, openWebview } from './harness';
import { waitUntil } from '../support/waitUntil';

after(() => closeBrowser());

const ENGLISH = { t: (m: string, ...a: (string | number | boolean)[]) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)])) };

const task = (name: string, status: string, depends_on: string[], extra: Partial<JobTask> = {}): JobTask => ({
  id: `id-${name}`,
  name,
  status,
  depends_on,
  disclaimer: [],
  block_info: { name: `${name}-block`, version: '1.0.0' },
  time_taken: status === 'success' ? '1m5s' : '0s',
  ...extra,
});

const JOB: Job = {
  id: 'job-1',
  workflow_id: 'wf-1',
  status: 'running',
  progress: 45,
  cost: 102,
  created_at: '2026-11-25T14:57:00Z',
  val_errors: [],
  tasks: [
    task('report', 'pending', ['field-stats', 'water']),
    task('mosaic', 'success', []),
    task('clouds', 'success', ['mosaic']),
    task('water', 'failed', ['clouds'], { err_msg: 'no water found', failure_type: 'input_error', time_taken: '12s' }),
    task('field-stats', 'running', ['clouds'], { progress: 40 }),
  ],
};

/** Relative luminance contrast of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string): number => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((x) => {
      const v = Number(x) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

const THEMES: Record<string, Record<string, string>> = {
  dark: {},
  light: {
    '--vscode-editor-background': '#ffffff',
    '--vscode-foreground': '#3b3b3b',
    '--vscode-descriptionForeground': '#717171',
    '--vscode-sideBar-background': '#f8f8f8',
    '--vscode-charts-green': '#388a34',
    '--vscode-charts-blue': '#1a85ff',
    '--vscode-charts-yellow': '#bf8803',
    '--vscode-charts-red': '#e51400',
  },
  highContrast: {
    '--vscode-editor-background': '#000000',
    '--vscode-foreground': '#ffffff',
    '--vscode-descriptionForeground': '#ffffff',
    '--vscode-sideBar-background': '#000000',
    '--vscode-charts-green': '#89d185',
    '--vscode-charts-blue': '#3794ff',
    '--vscode-charts-yellow': '#ffd700',
    '--vscode-charts-red': '#f48771',
  },
};

describe('job graph webview', () => {
  it('lays the tasks out by their dependencies, coloured by status, the list in dependency order', async () => {
    const h = await openWebview('jobGraph');
    try {
      await h.waitFor(isType('ready'));
      const model = jobGraphModel(ENGLISH, JOB, 'Crop health');
      await h.send({ type: 'graph', model, state: { workflowId: 'wf-1', jobId: 'job-1', workflowName: 'Crop health' } });
      await h.page.waitForSelector('svg g.node');
      assert.equal(await h.page.textContent('h1'), 'Crop health: job of 2026-11-25 14:57 UTC');
      assert.match((await h.page.textContent('.summary')) ?? '', /Running, 45% · 102 tokens/);
      const laid = (await h.page.evaluate(() => (window as unknown as { eoJobGraph: { laidOut: unknown } }).eoJobGraph.laidOut)) as {
        nodes: { model: { id: string }; x: number }[];
        edges: { from: string; to: string }[];
      };
      const x = new Map(laid.nodes.map((n) => [n.model.id, n.x]));
      assert.equal(laid.edges.length, 5);
      for (const e of laid.edges) assert.ok((x.get(e.from) as number) < (x.get(e.to) as number), `${e.from} is left of ${e.to}`);
      assert.equal(await h.page.locator('svg path.edge').count(), 5);
      assert.deepEqual(await h.page.$$eval('table.tasks tbody tr td:first-child', (tds) => tds.map((t) => t.textContent)), [
        'mosaic',
        'clouds',
        'water',
        'field-stats',
        'report',
      ]);
      assert.deepEqual(await h.page.$$eval('svg g.node', (gs) => gs.map((g) => [g.getAttribute('data-task'), g.getAttribute('class')])), [
        ['id-mosaic', 'node look-success'],
        ['id-clouds', 'node look-success'],
        ['id-water', 'node look-failed'],
        ['id-field-stats', 'node look-running'],
        ['id-report', 'node look-waiting'],
      ]);
      // the legend names the waiting colour as the waiting node's status says it
      const legend = await h.page.$$eval('.legend li', (lis) => lis.map((li) => [li.querySelector('.swatch')?.classList[1], li.textContent]));
      assert.deepEqual(
        legend.find(([look]) => look === 'look-waiting'),
        ['look-waiting', 'Pending'],
      );
      assert.match((await h.page.textContent('g.node[data-task="id-report"] text.status')) ?? '', /^Pending/);
      assert.match(
        (await h.page.getAttribute('g.node[data-task="id-water"]', 'aria-label')) ?? '',
        /water, water-block 1\.0\.0, Failed, 12 s, a problem with its inputs: no water found, depends on clouds/,
      );
      assert.equal(await h.page.locator('g.node[data-task="id-field-stats"] rect.progress').count(), 1);
      const state = await h.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
      assert.deepEqual(state, { workflowId: 'wf-1', jobId: 'job-1', workflowName: 'Crop health' });
      // keyboard: a node's Enter and the list's button both open the task's log
      await h.page.focus('g.node[data-task="id-water"]');
      await h.page.keyboard.press('Enter');
      assert.deepEqual(await h.waitFor((m) => (m as { type?: string }).type === 'openLog'), { type: 'openLog', taskId: 'id-water' });
      // a live update keeps the focus where it was
      await h.send({
        type: 'graph',
        model: jobGraphModel(ENGLISH, { ...JOB, progress: 60 }, 'Crop health'),
        state: { workflowId: 'wf-1', jobId: 'job-1', workflowName: 'Crop health' },
      });
      await waitUntil(h.page, () => document.querySelector('.summary')?.textContent?.includes('60%'));
      assert.equal(await h.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.task), 'id-water');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  for (const [theme, vars] of Object.entries(THEMES)) {
    it(`every node's text is readable against its box in the ${theme} theme`, async () => {
      const h = await openWebview('jobGraph', { colorScheme: theme === 'light' ? 'light' : 'dark' });
      try {
        await h.waitFor(isType('ready'));
        // as VS Code sets its theme: CSS variables on the page (through the CSSOM; the CSP allows no inline style)
        await h.page.evaluate((v) => {
          for (const [k, c] of Object.entries(v)) document.documentElement.style.setProperty(k, c);
        }, vars);
        await h.send({
          type: 'graph',
          model: jobGraphModel(ENGLISH, JOB, 'Crop health'),
          state: { workflowId: 'wf-1', jobId: 'job-1', workflowName: 'Crop health' },
        });
        await h.page.waitForSelector('svg g.node');
        const colours = await h.page.$$eval('svg g.node', (gs) =>
          gs.map((g) => ({
            box: getComputedStyle(g.querySelector('rect.box') as Element).fill,
            stroke: getComputedStyle(g.querySelector('rect.box') as Element).stroke,
            name: getComputedStyle(g.querySelector('text.name') as Element).fill,
            status: getComputedStyle(g.querySelector('text.status') as Element).fill,
          })),
        );
        for (const c of colours) {
          assert.ok(contrast(c.name, c.box) >= 4.5, `${theme}: name ${c.name} on ${c.box}`);
          assert.ok(contrast(c.status, c.box) >= 3, `${theme}: status ${c.status} on ${c.box}`);
          assert.ok(contrast(c.stroke, c.box) >= 1.5, `${theme}: border ${c.stroke} on ${c.box}`);
        }
        assert.equal(new Set(colours.map((c) => c.stroke)).size, 4, 'four looks, four border colours');
      } finally {
        await h.close();
      }
    });
  }

  it('says in words what cannot be drawn, and keeps service text as text', async () => {
    const h = await openWebview('jobGraph');
    try {
      await h.waitFor(isType('ready'));
      const hostile = '<img src=x onerror="document.title=1">';
      const job: Job = { ...JOB, tasks: [task('a', 'success', []), task(hostile, 'pending', ['a', 'ghost'])] };
      await h.send({ type: 'graph', model: jobGraphModel(ENGLISH, job, 'W'), state: { workflowId: 'w', jobId: 'j', workflowName: 'W' } });
      await h.page.waitForSelector('.problems');
      assert.match((await h.page.textContent('.problems')) ?? '', /depends on "ghost", which is not a task of this job/);
      assert.equal(await h.page.getAttribute('.problems', 'role'), 'alert');
      assert.equal(await h.page.locator('svg path.edge').count(), 1, 'the edge to the unknown task is left out');
      assert.equal(await h.page.locator('img').count(), 0);
      assert.deepEqual(await h.page.$$eval('g.node text.name', (ts) => ts.map((t) => t.textContent)), ['a', hostile]);
      await h.send({ type: 'error', message: 'Could not load the job: Not found (404).' });
      assert.equal(await h.page.textContent('[role="alert"]'), 'Could not load the job: Not found (404).');
      await h.page.click('button');
      await h.waitFor(isType('refresh'));
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('a job of thousands of tasks: a bounded drawing, said in words, and a list that finds every task, quickly', async () => {
    const h = await openWebview('jobGraph');
    try {
      await h.waitFor(isType('ready'));
      // a chain listed backwards, and 20,000 tasks one of which waits for all the others
      const many = wide(20_000);
      for (const tasks of [reversedChain(2000), many]) {
        const model = jobGraphModel(ENGLISH, { ...JOB, tasks }, 'Big');
        // the page's own time from the message to the frame after it is drawn
        const ms = await h.page.evaluate(async (m) => {
          const t0 = performance.now();
          // as the extension's message arrives: the page's dispatcher runs its handler in this event
          window.dispatchEvent(new MessageEvent('message', { data: { type: 'graph', model: m, state: { workflowId: 'w', jobId: 'j', workflowName: 'Big' } } }));
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          return performance.now() - t0;
        }, model);
        // the budget is 100 ms (npm run bench -- hostile reports it); the machine is shared, and main took 19 s for 2,000
        assert.ok(ms < 5000, `${tasks.length} tasks drawn in ${ms.toFixed(0)} ms`);
        assert.equal(await h.page.locator('svg g.node').count(), 100);
        assert.match(
          (await h.page.textContent('.drawn-note')) ?? '',
          new RegExp(
            `^The graph draws the first 100 of the ${tasks.length.toLocaleString('en')} tasks in dependency order; the list below names every task\\.`,
          ),
        );
        assert.equal(await h.page.locator('table.tasks tbody tr').count(), 200);
        assert.equal(await h.page.textContent('.pager'), `Tasks 1–200 of ${tasks.length.toLocaleString('en')}`);
      }
      // every task can be reached: by its name, or page by page
      await h.page.fill('input.find-task', 'report');
      assert.deepEqual(await h.page.$$eval('table.tasks tbody tr td:first-child', (tds) => tds.map((t) => t.textContent)), ['report']);
      assert.match((await h.page.textContent('table.tasks tbody tr td:nth-child(5)')) ?? '', /^t0, t1, t2, t3, t4 and 19,994 more$/);
      await h.page.fill('input.find-task', '');
      await h.page.click('button.next');
      assert.equal(await h.page.textContent('.pager'), 'Tasks 201–400 of 20,000');
      // a live update keeps what the person was finding, and the keyboard in the box
      await h.page.fill('input.find-task', 't1999');
      await h.send({
        type: 'graph',
        model: jobGraphModel(ENGLISH, { ...JOB, progress: 80, tasks: many }, 'Big'),
        state: { workflowId: 'w', jobId: 'j', workflowName: 'Big' },
      });
      await waitUntil(h.page, () => document.querySelector('.summary')?.textContent?.includes('80%'));
      assert.equal(await h.page.inputValue('input.find-task'), 't1999');
      assert.equal(await h.page.evaluate(() => document.activeElement?.className), 'find-task');
      assert.equal(await h.page.textContent('.pager'), 'Tasks 1–10 of 10 whose name contains "t1999"');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});
