// Runs inside code-server's extension host (the `extensionTestsPath` module of one window):
// points EO Imagery at the sandbox the driver started (10,000 orders), then times expanding
// the Orders view to its first page rendered (rows fetched and their TreeItems built), five
// times from a cold list, against the bare client call for the same page; and measures the
// host's heap after loading 20 pages with "Load more…". Writes the figures to
// EO_TEST_RESULT_FILE.
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { EoClient } from '../../src/api';
import type { EoImageryApi } from '../../src/extension';
import { collectGarbage } from './measure';

export interface ExplorerSample {
  total: number;
  expandMs: number[];
  clientMs: number[];
  heapAfterActivationMb: number;
  heapAfterPagesMb: number;
  pagesLoaded: number;
  rowsShown: number;
  error?: string;
}

function gcIfPossible(): void {
  collectGarbage();
  collectGarbage();
}

const heapMb = (): number => process.memoryUsage().heapUsed / (1024 * 1024);

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: ExplorerSample = { total: 0, expandMs: [], clientMs: [], heapAfterActivationMb: 0, heapAfterPagesMb: 0, pagesLoaded: 0, rowsShown: 0 };
  try {
    const url = process.env.EO_BENCH_URL;
    const token = process.env.EO_BENCH_TOKEN;
    if (!url || !token) throw new Error('EO_BENCH_URL and EO_BENCH_TOKEN must be set by the driver');
    const ext = vscode.extensions.getExtension<EoImageryApi>('eo-imagery.eo-imagery');
    if (!ext) throw new Error('EO Imagery is not loaded');
    const api = await ext.activate();
    await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', url, vscode.ConfigurationTarget.Global);
    await api.services.connection.signIn(token, url);
    const explorer = api.services.explorer;
    if (!explorer) throw new Error('services.explorer is not set');
    const provider = explorer.providers.orders;
    const client = (await api.services.connection.getClient()) as EoClient;
    await client.orders.listPage({ offset: 0, limit: 50 }); // warm the connection pool
    gcIfPossible();
    sample.heapAfterActivationMb = heapMb();

    for (let i = 0; i < 5; i++) {
      explorer.refresh('orders');
      const t0 = performance.now();
      const rows = await provider.getChildren();
      for (const r of rows) provider.getTreeItem(r);
      sample.expandMs.push(performance.now() - t0);
      const c0 = performance.now();
      await client.orders.listPage({ offset: 0, limit: 50 });
      sample.clientMs.push(performance.now() - c0);
    }
    sample.total = provider.root.total ?? 0;

    explorer.refresh('orders');
    await provider.getChildren();
    sample.pagesLoaded = 1;
    while (sample.pagesLoaded < 20) {
      const rows = await provider.getChildren();
      const more = rows.find((r) => r.kind === 'loadMore');
      if (!more) break;
      await vscode.commands.executeCommand('eoImagery.loadMore', more);
      for (const r of await provider.getChildren()) provider.getTreeItem(r);
      sample.pagesLoaded++;
    }
    sample.rowsShown = provider.root.shown;
    gcIfPossible();
    sample.heapAfterPagesMb = heapMb();
    await api.services.connection.signOut();
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
