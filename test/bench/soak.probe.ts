// Runs inside code-server's extension host: the extension, signed in to the sandbox through the
// fault proxy (5 % of requests reset: before a byte is sent, in the middle of the body, or after
// the service acted with its answer lost; 1 % answered 503 with Retry-After), used for
// EO_SOAK_MINUTES (default 30) in rounds of what a person does: browse the sidebar, search the
// archive, read imagery ranges, save a catalog download, start an insight run (a spend, priced
// and confirmed), while the watcher follows what was started. What the person is asked is
// answered as they would (Save to Folder, Resume, Run; never "Run Again" after a lost answer).
// Counted: data lost (a saved file or a read range that differs from what the sandbox serves),
// duplicate spends (runs stored beyond one per confirmation), hangs (a step not done in 3 min),
// failures told to the person, and the host's heap after a collection, early and late.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EoClient } from '../../src/api';
import type { DownloadOutcome } from '../../src/commands/catalog/download';
import { COMMANDS } from '../../src/commandIds';
import type { Prompts } from '../../src/ui/prompts';
import { FaultProxy } from '../support/faultProxy';
import { connectToSandbox, startSandbox, type Sandbox } from '../integration/harness/sandbox';
import { waterExtentAoi, writeWaterExtent } from '../integration/support/waterExtent';
import { collectGarbage, median } from './measure';

export interface SoakSample {
  minutes: number;
  seed?: number;
  rounds: number;
  /** Steps done, by kind. */
  steps: Record<string, number>;
  /** Requests the proxy saw, and the faults it injected, by kind. */
  requests: number;
  faults: Record<string, number>;
  /** A saved file or a read range whose bytes differ from the sandbox's. */
  dataLost: number;
  /** What each loss was (first 20). */
  lost: string[];
  /** Downloads that ended without a file (each told, its bytes kept to resume). */
  downloadsUnfinished: number;
  /** Runs confirmed, runs the service stored for them, and stored beyond one per confirmation. */
  spends: { confirmed: number; stored: number; duplicates: number; toldNothingStarted: number };
  hangs: number;
  /** Error notifications shown to the person (each a sentence with a way forward). */
  errorsTold: number;
  heapMb: { early: number; late: number };
  watcherRequests: number;
  error?: string;
}

const STEP_TIMEOUT_MS = 180_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const round1 = (n: number): number => Math.round(n * 10) / 10;

/** A collection first, so that the heap read is what is held, not what is garbage. */
function heapAfterGc(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

/** Answers as a person doing the rounds would: by what each prompt asks, in any order. */
class SoakPrompts implements Prompts {
  readonly told: { severity: string; text: string }[] = [];
  confirmations = 0;
  constructor(
    private readonly folder: string,
    private readonly aoiName: string,
  ) {}
  async pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions): Promise<T | undefined> {
    const list = await items;
    const title = `${options.title ?? ''} ${options.placeHolder ?? ''}`;
    if (/^Run .+ tokens\?/.test(options.title ?? '')) {
      this.confirmations++;
      return list.find((i) => /Run/.test(i.label) && !/Cancel/.test(i.label));
    }
    if (/AOI/.test(title)) return list.find((i) => i.label === this.aoiName);
    return undefined;
  }
  async pickMany<T extends vscode.QuickPickItem>(): Promise<readonly T[] | undefined> {
    return undefined;
  }
  async input(): Promise<string | undefined> {
    return undefined;
  }
  async message(severity: 'info' | 'warning' | 'error', text: string, _o: vscode.MessageOptions, ...buttons: string[]): Promise<string | undefined> {
    this.told.push({ severity, text });
    if (buttons.includes('Save to Folder…')) return 'Save to Folder…';
    if (buttons.includes('Resume')) return 'Resume';
    return undefined;
  }
  async openDialog(): Promise<vscode.Uri[] | undefined> {
    return [vscode.Uri.file(this.folder)];
  }
}

interface SandboxExtras {
  state: { insights: unknown[]; downloads: unknown[] };
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const minutes = Number(process.env.EO_SOAK_MINUTES) || 30;
  const sample: SoakSample = {
    minutes,
    rounds: 0,
    steps: {},
    requests: 0,
    faults: {},
    dataLost: 0,
    lost: [],
    downloadsUnfinished: 0,
    spends: { confirmed: 0, stored: 0, duplicates: 0, toldNothingStarted: 0 },
    hangs: 0,
    errorsTold: 0,
    heapMb: { early: 0, late: 0 },
    watcherRequests: 0,
  };
  let sandbox: Sandbox | undefined;
  let proxy: FaultProxy | undefined;
  try {
    sandbox = await startSandbox();
    const direct = await connectToSandbox(sandbox);
    const { aoi, asset } = await waterExtentAoi(await direct.api.services.connection.getClient());
    const insight = await writeWaterExtent('soak', asset);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-soak-'));
    const catalogId = (await (await direct.api.services.connection.getClient()).catalogs.searchPage({ limit: 1 })).items[0]?.id;
    if (!catalogId) throw new Error('the sandbox has no catalog entry to download');

    proxy = await FaultProxy.start({ upstream: sandbox.url });
    sample.seed = proxy.seed;
    proxy.add({ probability: 0.02, toxic: { kind: 'resetPeer', afterBytes: 0 } });
    proxy.add({ probability: 0.02, toxic: { kind: 'resetPeer', afterBytes: 700 } });
    proxy.add({ probability: 0.01, toxic: { kind: 'lostAnswer' } });
    proxy.add({ probability: 0.01, toxic: { kind: 'status', status: 503, retryAfter: '1' } });
    const conn = await connectToSandbox({ ...sandbox, url: proxy.url });
    const prompts = new SoakPrompts(folder, aoi.name);
    conn.api.testing.usePrompts(prompts);
    const services = conn.api.services;
    const client = (): Promise<EoClient> => services.connection.getClient();
    const sb = sandbox;
    const extras = sandbox as unknown as SandboxExtras;
    const href = await imageryHref(client, sb.url);

    const steps: Record<string, () => Promise<void>> = {
      browse: () => browse(conn.api.services.explorer as BrowseExplorer),
      search: async () => void (await (await client()).archives.search({ limit: 20 }).catch(() => undefined)),
      imagery: async () => {
        const auth = { authorization: `Bearer ${sb.tokens.alice}` };
        const total = (await fetch(href, { method: 'HEAD', headers: auth })).headers.get('content-length');
        const offset = Math.floor(Math.random() * Math.max(1, Number(total) - 65_536));
        const got = await (await client()).readRange(href.replace(sb.url, proxy!.url), offset, 65_536, { maxWholeFile: 1 << 20 }).catch(() => undefined);
        if (!got) return;
        const want = Buffer.from(await (await fetch(href, { headers: { ...auth, range: `bytes=${offset}-${offset + 65_535}` } })).arrayBuffer());
        if (!got.body.equals(want)) {
          sample.dataLost++;
          sample.lost.push(`imagery ${offset}: ${got.status} ${got.body.length} bytes, ${want.length} wanted`);
        }
      },
      download: async () => {
        const out = await vscode.commands.executeCommand<DownloadOutcome | undefined>(COMMANDS.download, { catalogIds: [catalogId] });
        if (!out?.file) {
          sample.downloadsUnfinished++;
          return;
        }
        const link = out.download.signed_url?.replace(proxy!.url, sb.url);
        const want = link ? Buffer.from(await (await fetch(link)).arrayBuffer()) : undefined;
        if (!want || !fs.readFileSync(out.file).equals(want)) {
          sample.dataLost++;
          sample.lost.push(`download: ${fs.statSync(out.file).size} bytes saved, ${want?.length ?? 'none'} served`);
        }
        fs.rmSync(out.file, { force: true });
      },
      spend: async () => {
        const before = extras.state.insights.length;
        const confirmed = prompts.confirmations;
        const told = prompts.told.length;
        await vscode.commands.executeCommand(COMMANDS.runInsight, insight, { aoiId: aoi.aoi_id });
        const asked = prompts.confirmations - confirmed;
        const stored = extras.state.insights.length - before;
        sample.spends.confirmed += asked;
        sample.spends.stored += stored;
        sample.spends.duplicates += Math.max(0, stored - asked);
        if (prompts.told.slice(told).some((m) => /nothing was started/.test(m.text))) sample.spends.toldNothingStarted++;
      },
    };

    const deadline = Date.now() + minutes * 60_000;
    const heaps: number[] = [];
    while (Date.now() < deadline) {
      for (const [name, step] of Object.entries(steps)) {
        const done = await Promise.race([step().then(() => true), sleep(STEP_TIMEOUT_MS).then(() => false)]).catch(() => true);
        if (!done) sample.hangs++;
        sample.steps[name] = (sample.steps[name] ?? 0) + 1;
      }
      sample.rounds++;
      heaps.push(heapAfterGc());
    }
    const third = Math.max(1, Math.floor(heaps.length / 3));
    sample.heapMb = { early: round1(median(heaps.slice(0, third))), late: round1(median(heaps.slice(-third))) };
    sample.requests = proxy.log.length;
    for (const r of proxy.log) if (r.toxic) sample.faults[r.toxic] = (sample.faults[r.toxic] ?? 0) + 1;
    sample.errorsTold = prompts.told.filter((m) => m.severity === 'error').length;
    sample.watcherRequests = services.watcher.requests;
    await vscode.workspace.fs.delete(insight).then(undefined, () => undefined);
    fs.rmSync(folder, { recursive: true, force: true });
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await proxy?.close();
    await sandbox?.close();
    if (file) fs.writeFileSync(file, JSON.stringify(sample));
  }
}

interface BrowseExplorer {
  refresh(view: 'projects'): void;
  providers: { projects: { getChildren(node?: unknown): Promise<unknown[]> } };
}

/** Projects, the first project's AOIs, the first AOI's assets: each list as the sidebar loads it. */
async function browse(explorer: BrowseExplorer): Promise<void> {
  explorer.refresh('projects');
  let rows = await explorer.providers.projects.getChildren();
  for (let depth = 0; depth < 2 && rows[0]; depth++) rows = await explorer.providers.projects.getChildren(rows[0]);
}

/** A GeoTIFF of the archive (its first item's first `.tif` asset), as the sandbox serves it; asked until a try gets through. */
async function imageryHref(client: () => Promise<EoClient>, base: string): Promise<string> {
  let found: Awaited<ReturnType<EoClient['archives']['search']>> | undefined;
  for (let i = 0; i < 5 && !found; i++) found = await (await client()).archives.search({ limit: 5 }).catch(() => undefined);
  for (const item of found?.features ?? []) {
    for (const a of Object.values(item.assets ?? {})) {
      const href = (a as { href?: string }).href;
      if (href && /\.tiff?(\?|$)/.test(href) && href.startsWith(base)) return href;
    }
  }
  const first = Object.values(found?.features[0]?.assets ?? {})[0] as { href?: string } | undefined;
  throw new Error(`no GeoTIFF asset below ${base} in the archive search (${found?.features.length ?? 'no'} items; first asset ${first?.href ?? 'none'})`);
}
