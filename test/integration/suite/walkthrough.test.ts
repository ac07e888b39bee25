// The "Get Started with EO Imagery" walkthrough: every step's completion event is one the
// extension really produces (a contributed command, the signed-in context, or a step context
// the extension sets when it sees the step's request succeed), its media exist, and the steps
// complete when a person does them: expanding a project, searching from the map, pricing an
// order. The walkthrough is offered once, never again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ArchiveItem } from '../../../src/api/records';
import { COMMANDS } from '../../../src/commandIds';
import type { SearchPage, SearchParams } from '../../../src/panels/protocol';
import type { ExplorerNode, RecordNode } from '../../../src/explorer/tree';
import { EXTENSION_ID, useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { WALKTHROUGH_ID } from '../../../src/walkthrough';
import { MANIFEST_STEP } from '../../../src/walkthrough/progress';
import { until } from '../support/until';
import { testPanels } from '../support/webviewTap';

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image?: string; markdown?: string; altText?: string };
  completionEvents: string[];
}

function manifestOf(): { walkthroughs: { id: string; steps: WalkthroughStep[] }[]; commands: { command: string }[] } {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const c = (ext.packageJSON as { contributes: { walkthroughs: { id: string; steps: WalkthroughStep[] }[]; commands: { command: string }[] } }).contributes;
  return c;
}

suite('walkthrough: steps complete by their real events', function () {
  this.timeout(90_000);
  const env = useSandbox();

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the manifest declares the steps, their events are ones the extension produces, their media exist', () => {
    const c = manifestOf();
    const wt = c.walkthroughs.find((w) => w.id === 'eoImagery.gettingStarted');
    assert.ok(wt, 'no eoImagery.gettingStarted walkthrough');
    assert.deepEqual(
      wt.steps.map((s) => s.id),
      ['signIn', 'browseProject', 'showOnMap', 'searchArchive', 'priceOrder', 'insightInput'],
    );
    const commands = new Set(c.commands.map((x) => x.command));
    const contexts = new Set([
      'eoImagery.signedIn',
      'eoImagery.walkthrough.signedIn',
      'eoImagery.walkthrough.projectBrowsed',
      'eoImagery.walkthrough.archiveSearched',
      'eoImagery.walkthrough.orderPriced',
    ]);
    const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    for (const step of wt.steps) {
      assert.ok(step.completionEvents.length > 0, `${step.id} never completes`);
      for (const e of step.completionEvents) {
        const [kind, arg] = e.split(':', 2).length === 2 ? [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)] : [e, ''];
        if (kind === 'onCommand') assert.ok(commands.has(arg), `${step.id}: ${e} names no contributed command`);
        else if (kind === 'onContext') assert.ok(contexts.has(arg), `${step.id}: ${e} is no context the extension sets`);
        else assert.fail(`${step.id}: unexpected completion event ${e}`);
      }
      const media = step.media.image ?? step.media.markdown;
      assert.ok(media && fs.existsSync(path.join(root, media)), `${step.id}: media ${media} is missing`);
      if (step.media.image) assert.ok(step.media.altText && step.media.altText.length > 20, `${step.id}: the image has no real alt text`);
      for (const m of step.description.matchAll(/\(command:([\w.]+)\)/g)) {
        if (!m[1].endsWith('.focus')) assert.ok(commands.has(m[1]), `${step.id}: link to unknown command ${m[1]}`);
      }
    }
  });

  test('expanding a project, searching from the map and pricing an order complete their steps', async () => {
    const { api, sandbox } = env.current;
    const wt = api.testing.walkthrough;
    wt.forget();

    const projects = await api.services.explorer!.providers.projects.getChildren();
    const project = projects.find((n): n is RecordNode => n.kind === 'project' && 'recordId' in n);
    assert.ok(project);
    const aois: ExplorerNode[] = await api.services.explorer!.providers.projects.getChildren(project);
    await until('the projectBrowsed step', () => wt.done.has('projectBrowsed'));
    assert.ok(!wt.done.has('archiveSearched') && !wt.done.has('orderPriced'), `too much done: ${[...wt.done].join(', ')}`);

    const aoi = aois.find((n) => n.kind === 'aoi');
    assert.ok(aoi, `no AOI under the project: ${aois.map((n) => n.kind).join(', ')}`);
    await vscode.commands.executeCommand('eoImagery.showOnMap', aoi);
    const map = await until('the map panel', () => testPanels(api.services.panels).map());
    await map.whenReady();
    const params: SearchParams = {
      kind: 'archive',
      shape: 'rectangle',
      ring: [
        [0, 45],
        [5, 45],
        [5, 50],
        [0, 50],
        [0, 45],
      ],
      collections: [],
      satellites: [],
      from: '',
      to: '',
      sort: 'datetime-desc',
      limit: 4,
    };
    const rid = 71_000;
    await map.receive({ type: 'request', id: rid, request: { method: 'search', params } });
    const res = map.posted.find((m) => (m as { type: string; id?: number }).type === 'response' && (m as { id: number }).id === rid) as
      { ok: boolean; result?: SearchPage } | undefined;
    assert.ok(res?.ok && (res.result?.features.length ?? 0) > 0, 'the map search found nothing');
    await until('the archiveSearched step', () => wt.done.has('archiveSearched'));
    assert.ok(!wt.done.has('orderPriced'));

    // Price an archive order and decline at the summary: priced, nothing placed.
    const search = await fetch(`${sandbox.url}/v0/archives/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.tokens.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 1 }),
    });
    const item = ((await search.json()) as { features: ArchiveItem[] }).features[0];
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Project/, choose: (items) => items[0] },
      { kind: 'input', match: /Name/, answer: 'Walkthrough order' },
      { kind: 'input', match: /Use case/, answer: 'walkthrough' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'cancel', match: /^Place this order\?/ },
    ]);
    const restore = api.testing.usePrompts(prompts);
    try {
      await vscode.commands.executeCommand(COMMANDS.orderArchiveItems, item);
    } finally {
      restore();
    }
    prompts.assertDone();
    await until('the orderPriced step', () => wt.done.has('orderPriced'));
  });

  test("VS Code's walkthrough knows each step id the extension ticks, and refuses one it does not know", async () => {
    const mark = (step: string): Thenable<unknown> => vscode.commands.executeCommand('welcome.markStepComplete', `${WALKTHROUGH_ID}#${step}`);
    // The workbench registers the walkthrough a moment after its service starts.
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await mark(MANIFEST_STEP.signedIn);
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    for (const step of Object.values(MANIFEST_STEP)) await mark(step);
    await assert.rejects(Promise.resolve(mark('noSuchStep')), 'an unknown step id was accepted: a wrong id would fail silently');
  });

  test('the walkthrough is offered once and never again; Get Started opens it on request', async () => {
    const { api } = env.current;
    const tabs = (): string[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    assert.equal(await api.testing.walkthrough.offerOnce(), true, 'not offered the first time');
    await until('the walkthrough tab', () => tabs().some((l) => /welcome|walkthrough|get started/i.test(l)) || undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await api.testing.walkthrough.offerOnce(), false, 'offered a second time');
    assert.ok(!tabs().some((l) => /welcome|walkthrough|get started/i.test(l)), 'opened again unasked');
    await vscode.commands.executeCommand(COMMANDS.getStarted);
    await until('the walkthrough tab after Get Started', () => tabs().some((l) => /welcome|walkthrough|get started/i.test(l)) || undefined);
  });
});
