// Runs inside code-server's extension host: signs in to an in-process sandbox and, for each
// read-only chat tool, times the tool as chat calls it (vscode.lm.invokeTool) against the
// direct client calls it wraps (the same requests through the same client, the raw answers
// parsed and nothing more), interleaved round by round, with an empty tool of another
// extension (test/fixtures/empty-tool-extension) called through invokeTool in the same rounds:
// VS Code's own round trip. Also measures each tool's answer on the sandbox's largest inputs:
// bytes and rows, beside the bytes of the raw JSON it summarises.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { collect, type EoClient } from '../../src/api';
import { imagerySearchBody, archiveSearchBody } from '../../src/panels/mapData';
import { emptyOrderEntries } from '../../src/commands/orders/common';
import { archiveOrderParts } from '../../src/commands/orders/orderArchive';
import { TOOLS, type ToolName } from '../../src/tools/toolIds';
import { connectToSandbox, startSandbox } from '../integration/harness/sandbox';

export interface ToolFigure {
  tool: string;
  /** What the direct call is. */
  direct: string;
  toolMs: number[];
  /** The same tool's answer computed in the extension host, without the invokeTool round trip. */
  handlerMs: number[];
  directMs: number[];
  /** The empty tool through invokeTool, in the same rounds: VS Code's round trip alone. */
  emptyMs: number[];
  answerBytes: number;
  answerRows: number;
  rawBytes: number;
}

export interface ToolsSample {
  rounds: number;
  settleMs: number;
  figures: ToolFigure[];
  /**
   * invokeTool of one of ours that answers without the service (input it refuses: the
   * deferred stand-in, prepareInvocation, reading the input, a one-line answer) beside the
   * empty tool's, interleaved: what of the round trip is ours.
   */
  roundTrip: { oursMs: number[]; emptyMs: number[] };
  error?: string;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
export const EMPTY_TOOL_EXTENSION = 'eo-imagery-bench.empty-tool-extension';
const EMPTY_TOOL = 'eoBench_empty';
/**
 * The pause before every timed call. An invokeTool call leaves the extension host busy for a
 * moment after it resolves, and whichever call came next took 0.5 to 0.7 ms longer; with the
 * kinds rotated, the handler followed invokeTool in two rounds of three and the direct call in
 * one, which put 0.3 to 0.7 ms on the handler's median that was not its work. Each call now
 * starts from the same idle window.
 */
const SETTLE_MS = 15;

async function timed(work: () => Promise<unknown>): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

/** Every kind once per round, the first one rotating, so drift in load hits all alike. */
function rotated<K>(kinds: readonly K[], round: number): K[] {
  return [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)];
}
const WORLD: [number, number, number, number] = [-179, -80, 179, 80];
const ring = (b: readonly number[]): [number, number][] => [
  [b[0], b[1]],
  [b[2], b[1]],
  [b[2], b[3]],
  [b[0], b[3]],
  [b[0], b[1]],
];

async function invoke(name: string, input: object): Promise<string> {
  const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

interface Case {
  tool: string;
  input: object;
  direct: string;
  /** The client calls the tool makes, returning what they parsed. */
  call(c: EoClient): Promise<unknown>;
}

function cases(itemRef: { collection: string; id: string }): Case[] {
  return [
    { tool: TOOLS.listProjects, input: {}, direct: 'projects.listPage(1, 20)', call: (c) => c.projects.listPage({ pageNum: 1, pageSize: 20 }) },
    {
      tool: TOOLS.listAois,
      input: {},
      direct: 'aois.iterate (all) + projects.iterate (all)',
      call: async (c) => Promise.all([collect(c.aois.iterate({}, { pageSize: 100, cap: 1000 })), collect(c.projects.iterate({ cap: 500 }))]),
    },
    {
      tool: TOOLS.searchArchive,
      input: { bbox: WORLD },
      direct: 'archives.search (world bbox, 20)',
      call: (c) =>
        c.archives.search(
          archiveSearchBody({
            kind: 'archive',
            ring: ring(WORLD),
            shape: 'rectangle',
            collections: [],
            satellites: [],
            from: '',
            to: '',
            sort: 'datetime-desc',
            limit: 20,
          }),
        ),
    },
    {
      tool: TOOLS.searchImagery,
      input: { bbox: WORLD, satellites: ['sentinel-2', 'landsat-8-9'] },
      direct: 'search.satellites + search.imagery (world, 2 satellites, 20)',
      call: async (c) => {
        const sats = await c.search.satellites();
        const body = imagerySearchBody(
          {
            kind: 'imagery',
            ring: ring(WORLD),
            shape: 'rectangle',
            collections: [],
            satellites: ['sentinel-2', 'landsat-8-9'],
            from: '',
            to: '',
            sort: 'datetime-desc',
            limit: 20,
          },
          sats,
        );
        return c.search.imagery(body);
      },
    },
    {
      tool: TOOLS.describeItem,
      input: { item: `${itemRef.collection}/${itemRef.id}` },
      direct: 'archives.item',
      call: (c) => c.archives.item(itemRef.collection, itemRef.id),
    },
    {
      tool: TOOLS.priceOrder,
      input: { items: [`${itemRef.collection}/${itemRef.id}`], project: 'Water resources' },
      direct: 'projects.iterate + archives.item + orders.create(dry_run)',
      call: async (c) => {
        const [projects, item] = await Promise.all([collect(c.projects.iterate({ cap: 500 })), c.archives.item(itemRef.collection, itemRef.id)]);
        const project = projects.find((p) => p.title === 'Water resources' || p.name === 'Water resources');
        // The body the Order wizard builds for these entries (what the tool sends too).
        const entries = { ...emptyOrderEntries('bench'), projectId: project?.id ?? '' };
        return c.orders.create({ dry_run: true, order_items: archiveOrderParts([item])?.build(entries) ?? [] });
      },
    },
    { tool: TOOLS.status, input: {}, direct: 'orders.listPage(0, 20)', call: (c) => c.orders.listPage({ offset: 0, limit: 20 }) },
    { tool: TOOLS.listBlocks, input: {}, direct: "blocks.list({mode: 'insight'})", call: (c) => c.blocks.list({ mode: 'insight' }) },
  ];
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: ToolsSample = { rounds: ROUNDS, settleMs: SETTLE_MS, figures: [], roundTrip: { oursMs: [], emptyMs: [] } };
  const sandbox = await startSandbox();
  try {
    const baseline = vscode.extensions.getExtension(EMPTY_TOOL_EXTENSION);
    if (!baseline) throw new Error(`the baseline extension ${EMPTY_TOOL_EXTENSION} is not installed`);
    await baseline.activate();
    const empty = (): Promise<string> => invoke(EMPTY_TOOL, {});
    const conn = await connectToSandbox(sandbox);
    const client = await conn.api.services.connection.getClient();

    // What of the round trip is ours: one of our tools that answers without the service.
    const refused = { page: 0 };
    if (!(await invoke(TOOLS.listProjects, refused)).includes('"page"')) throw new Error('listProjects did not refuse page 0');
    if ((await empty()) !== 'ok') throw new Error('the empty tool did not answer');
    for (let i = 0; i < 4 * ROUNDS; i++) {
      for (const which of rotated(['ours', 'empty'] as const, i)) {
        const ms = await timed(() => (which === 'ours' ? invoke(TOOLS.listProjects, refused) : empty()));
        (which === 'ours' ? sample.roundTrip.oursMs : sample.roundTrip.emptyMs).push(ms);
      }
    }

    const first = (await client.archives.search({ limit: 1, collections: ['sentinel-2-l2a'] })).features[0];
    for (const k of cases(first)) {
      const fig: ToolFigure = {
        tool: k.tool,
        direct: k.direct,
        toolMs: [],
        handlerMs: [],
        directMs: [],
        emptyMs: [],
        answerBytes: 0,
        answerRows: 0,
        rawBytes: 0,
      };
      // Warm both paths once (the first request of a kind loads code and opens connections).
      const answer = await invoke(k.tool, k.input);
      const raw = await k.call(client);
      fig.answerBytes = Buffer.byteLength(answer, 'utf8');
      fig.answerRows = answer.split('\n').filter((l) => l.startsWith('- ')).length;
      fig.rawBytes = Buffer.byteLength(JSON.stringify(raw), 'utf8');
      const name = (Object.keys(TOOLS) as ToolName[]).find((n) => TOOLS[n] === k.tool) as ToolName;
      const run: Record<'tool' | 'handler' | 'direct' | 'empty', { go(): Promise<unknown>; ms: number[] }> = {
        tool: { go: () => invoke(k.tool, k.input), ms: fig.toolMs },
        handler: { go: () => conn.api.testing.answerTool(name, k.input), ms: fig.handlerMs },
        direct: { go: () => k.call(client), ms: fig.directMs },
        empty: { go: empty, ms: fig.emptyMs },
      };
      for (let i = 0; i < ROUNDS; i++) {
        for (const which of rotated(['tool', 'handler', 'direct', 'empty'] as const, i)) run[which].ms.push(await timed(run[which].go));
      }
      sample.figures.push(fig);
    }
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
