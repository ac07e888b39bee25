// Runs inside code-server's extension host: the hostile shared view of issue 39 (200 asset
// layers on one AOI of 1,000 assets, a time slider of 200 dates on 200 AOIs of 500 assets;
// test/support/hostileView.ts) opened through the extension's own command against a sandbox,
// every request counted by a proxy in front of it. Side by side, through its own proxy, the
// same view read the way main read it, with the functions main's openView called: a walk of
// the listing per asset layer (fetchSource), each slider AOI's first 500 assets and the AOI
// (aoiAssets, aoiSatellite).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { EoClient } from '../../src/api';
import { COMMANDS } from '../../src/commandIds';
import { aoiAssets, aoiSatellite } from '../../src/commands/imagery/resolve';
import type { Opened } from '../../src/commands/shareView/openView';
import { encodeLink } from '../../src/commands/shareView/view';
import { VIEW_REQUEST_BUDGET } from '../../src/commands/shareView/viewReads';
import { fetchSource } from '../../src/panels/mapSources';
import { startSandbox } from '../../src/sandbox';
import { seedHostileView } from '../support/hostileView';
import { EXTENSION_ID, connectToSandbox } from '../integration/harness/sandbox';
import { countingProxy } from './insightPolling.probe';

export interface ViewBudgetSample {
  /** Characters of the link (its `v` parameter holds the view). */
  linkChars: number;
  distinctRecords: number;
  budget: number;
  /** Requests the extension's opening made, and how long it took. */
  ours: number;
  oursMs: number;
  leftOut: string[];
  shown: number;
  /** Requests of main's reading of the same view, and how long it took. */
  baseline: number;
  baselineMs: number;
  error?: string;
}

const total = (counts: Record<string, number>): number =>
  Object.entries(counts)
    .filter(([k]) => k.split(' ')[1].startsWith('/v0/'))
    .reduce((a, [, b]) => a + b, 0);

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: ViewBudgetSample = {
    linkChars: 0,
    distinctRecords: 0,
    budget: VIEW_REQUEST_BUDGET,
    ours: 0,
    oursMs: 0,
    leftOut: [],
    shown: 0,
    baseline: 0,
    baselineMs: 0,
  };
  const sandbox = await startSandbox({ port: 0 });
  const ours = await countingProxy(sandbox.url);
  const theirs = await countingProxy(sandbox.url);
  const baselineClient = new EoClient({ baseUrl: theirs.url, token: sandbox.tokens.alice, authScheme: 'bearer', timeoutMs: 30_000, userAgent: 'bench' });
  try {
    const conn = await connectToSandbox({ ...sandbox, url: ours.url });
    const { view, distinctRecords } = seedHostileView(sandbox, new URL(ours.url).host);
    const link = encodeLink(view, EXTENSION_ID);
    sample.linkChars = link.length;
    sample.distinctRecords = distinctRecords;
    // The map open and settled first: its search form's own reads are not the view's.
    conn.api.services.panels.showMap();
    await new Promise((r) => setTimeout(r, 3_000));
    for (const k of Object.keys(ours.counts)) delete ours.counts[k];
    // The notification is answered by nobody: the command returns when the view is drawn.
    const t0 = performance.now();
    const opened = await vscode.commands.executeCommand<Opened>(COMMANDS.openViewLink, link);
    sample.oursMs = performance.now() - t0;
    sample.ours = total(ours.counts);
    sample.leftOut = opened?.leftOut ?? [];
    sample.shown = opened?.shown ?? 0;

    const t1 = performance.now();
    await Promise.all(view.layers.map((s) => fetchSource(baselineClient, s).catch(() => undefined)));
    const aois = [...new Set(view.timeline?.frames.map((f) => (f.source.kind === 'asset' ? f.source.aoiId : '')).filter(Boolean))];
    await Promise.all(aois.map((id) => Promise.all([aoiAssets(baselineClient, id), aoiSatellite(baselineClient, id)]).catch(() => undefined)));
    sample.baselineMs = performance.now() - t1;
    sample.baseline = total(theirs.counts);
    await conn.disconnect();
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await baselineClient.close();
    await ours.close();
    await theirs.close();
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
