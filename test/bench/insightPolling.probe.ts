// Runs inside code-server's extension host: the sandbox (clock frozen) behind a counting
// proxy, EO Imagery pointed at the proxy, 20 AOIs expanded with their "Insight runs" shown,
// 3 runs pending on 3 of them. Counts the requests the extension makes in 60 s windows:
// (a) progress not moving (the poller backs off), (b) progress rising on every read. A
// baseline runs side by side through its own proxy: a fixed 2-second poll of the run list
// of each AOI that has a pending run (what one would write without backoff or sharing).
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { EoClient, type Aoi, type InputValue } from '../../src/api';
import type { EoImageryApi } from '../../src/extension';
import type { ExplorerNode } from '../../src/explorer/tree';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';

export interface WindowCounts {
  seconds: number;
  /** Requests by path, extension through its proxy. */
  ours: Record<string, number>;
  baseline: Record<string, number>;
}

export interface PollingSample {
  aoisExpanded: number;
  pendingAois: string[];
  still?: WindowCounts;
  rising?: WindowCounts;
  error?: string;
}

export interface Counter {
  url: string;
  counts: Record<string, number>;
  close(): Promise<void>;
}

/** A loopback proxy to `target` that counts requests by method and path (query dropped). */
export function countingProxy(target: string): Promise<Counter> {
  const t = new URL(target);
  const counts: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const key = `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]}`;
    counts[key] = (counts[key] ?? 0) + 1;
    const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({ url: `http://127.0.0.1:${port}`, counts, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/**
 * `aoiCount` AOIs (the seeded ones plus copies of a Sentinel-2 AOI, made final by moving the
 * clock a day) and one water-extent run pending on each of `runs` of them, past "queued".
 */
export async function pendingRuns(
  direct: EoClient,
  sandbox: SandboxHandle,
  aoiCount: number,
  runs: number,
): Promise<{ aois: Aoi[]; pending: Aoi[]; runIds: string[] }> {
  // New ones copy a Sentinel-2 AOI's polygon and images (creating an AOI picks imagery).
  let aois = (await direct.aois.listPage({ limit: 100 })).items;
  const model = aois.find((a) => a.satellite_id === 'sentinel-2');
  if (!model) throw new Error('no Sentinel-2 AOI to copy');
  const sat = (await direct.search.satellites()).find((s) => s.id === model.satellite_id);
  if (!sat) throw new Error('no Sentinel-2 satellite record');
  const found = await direct.search.imagery({
    start_date: '2015-01-01T00:00:00Z',
    end_date: '2030-01-01T00:00:00Z',
    satellites: [{ satellite_id: sat.id, collection_id: sat.collections[0].id }],
    geometry: model.geometry,
    limit: 2,
  });
  for (let k = 0; aois.length + k < aoiCount; k++) {
    await direct.aois.create({
      name: `Bench AOI ${k + 1}`,
      description: '',
      project_id: model.project_id,
      satellite_id: sat.id,
      geometry: model.geometry,
      provider: sat.collections[0].provider,
      item_ids: found.items.map((i) => i.id),
    });
  }
  sandbox.clock.advance(86_400_000);
  aois = (await direct.aois.listPage({ limit: 100 })).items.slice(0, aoiCount);

  // The runs, on AOIs with a mosaic the water-extent block can use.
  const water = (await direct.blocks.insights({ name: 'water-extent' }))[0];
  const pending: Aoi[] = [];
  const runIds: string[] = [];
  for (const a of aois) {
    if (pending.length === runs) break;
    const m = (await direct.aois.assetsPage(a.aoi_id, { limit: 100 })).items.find(
      (x) => x.visualization_id === '' && ['B03', 'B08', 'B11'].every((b) => x.band_list.includes(b)),
    );
    if (!m) continue;
    const input: InputValue[] = [
      { ...water.spec.inputs[0], stac_url: m.path, asset_source: { id: m.id, type: 'raw_mosaic' } },
      { ...water.spec.inputs[1], value: '0.2' },
      { ...water.spec.inputs[2], value: 'false' },
    ];
    const started = await direct.insightRuns.run(a.aoi_id, {
      name: `bench ${pending.length + 1}`,
      project_id: a.project_id,
      block: { name: water.spec.name, version: water.spec.version },
      input,
    });
    runIds.push(started.id);
    pending.push(a);
  }
  if (pending.length < runs) throw new Error(`only ${pending.length} AOIs can run water-extent`);
  sandbox.clock.advance(6000); // past "queued": running, progress moves with the clock

  return { aois, pending, runIds };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: PollingSample = { aoisExpanded: 0, pendingAois: [] };
  const sandbox = await startSandbox({ port: 0, speed: 0 });
  const ours = await countingProxy(sandbox.url);
  const theirs = await countingProxy(sandbox.url);
  try {
    const ext = vscode.extensions.getExtension<EoImageryApi>('eo-imagery.eo-imagery');
    if (!ext) throw new Error('EO Imagery is not loaded');
    const api = await ext.activate();
    await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', ours.url, vscode.ConfigurationTarget.Global);
    await api.services.connection.signIn(sandbox.tokens.alice, ours.url);
    const explorer = api.services.explorer;
    if (!explorer) throw new Error('services.explorer is not set');
    const direct = new EoClient({ baseUrl: sandbox.url, token: sandbox.tokens.alice, authScheme: 'bearer', timeoutMs: 10_000, userAgent: 'bench' });

    const { aois, pending } = await pendingRuns(direct, sandbox, 20, 3);
    sample.pendingAois = pending.map((a) => a.aoi_id);

    // Expand every AOI and its "Insight runs", rendering rows as the tree does.
    const provider = explorer.providers.projects;
    for (const a of aois) {
      const node = await explorer.reveal('aoi', a.aoi_id, { expand: true, focus: true });
      if (!node) throw new Error(`AOI ${a.name} is not in the Projects view`);
      const group = (await provider.getChildren(node)).find((n: ExplorerNode) => n.kind === 'insightRunGroup');
      if (!group) throw new Error('no Insight runs group');
      provider.getTreeItem(group);
      for (const r of await provider.getChildren(group)) provider.getTreeItem(r);
      sample.aoisExpanded++;
    }

    const baselineLoop = async (until: number): Promise<void> => {
      const c = new EoClient({ baseUrl: theirs.url, token: sandbox.tokens.alice, authScheme: 'bearer', timeoutMs: 10_000, userAgent: 'bench-baseline' });
      while (Date.now() < until) {
        await Promise.all(pending.map((a) => c.insightRuns.list(a.aoi_id)));
        await sleep(Math.max(0, Math.min(2000, until - Date.now())));
      }
      await c.close();
    };
    const window = async (seconds: number, tick?: () => void): Promise<WindowCounts> => {
      for (const k of Object.keys(ours.counts)) delete ours.counts[k];
      for (const k of Object.keys(theirs.counts)) delete theirs.counts[k];
      const until = Date.now() + seconds * 1000;
      const timer = tick ? setInterval(tick, 1000) : undefined;
      await Promise.all([baselineLoop(until), sleep(seconds * 1000)]);
      if (timer) clearInterval(timer);
      return { seconds, ours: { ...ours.counts }, baseline: { ...theirs.counts } };
    };
    sample.still = await window(60);
    // 0.3 s of sandbox time per wall second: the runs stay running for the whole window, and
    // their progress rises between two reads.
    sample.rising = await window(60, () => sandbox.clock.advance(300));
    await direct.close();
    await api.services.connection.signOut();
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await ours.close();
    await theirs.close();
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
