// Runs inside code-server's extension host as the tests module of a window the e2e test drives
// with Playwright. code-server has no language model, so a fixture extension
// (test/fixtures/scripted-model-extension) registers one whose answers are scripted (proposed
// chatProvider API) and a default participant, without which code-server hides the Chat view.
// The probe signs in to an in-process sandbox, checks the scripted model is what
// vscode.lm.selectChatModels finds, and sends two requests to @eo through the Chat view
// (workbench.action.chat.open): the participant hands each to request.model, which is the
// scripted model, and runs the tool calls it answers with through vscode.lm.invokeTool.
// 1. The model asks for an archive search over an AOI and a price: the model's next request
//    must carry both tools' answers; the test then finds the Show-on-Map button in the answer
//    and clicks it. 2. The model asks to order: with chat's own confirmation approved by
//    setting (chat.tools.autoApprove, "always allow"), EO Imagery's priced quick pick still
//    opens, and the test answers Cancel: the dry run is the only POST and no order exists.
// Handshake with the test through files next to EO_TEST_RESULT_FILE: `<result>.first` (the
// first answer is complete; holds the AOI), `<result>.go` (the test has checked it).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { collect } from '../../src/api';
import { TOOLS } from '../../src/tools/toolIds';
import { connectToSandbox, startSandbox } from '../integration/harness/sandbox';
import { until } from '../integration/support/until';
import { watchOrderPosts } from './orderPosts';

export const SCRIPTED_MODEL_EXTENSION = 'eo-imagery-test.scripted-model-extension';
const VENDOR = 'eo-test-scripted';

/** A scripted turn: text, or a tool call. */
type Part = { text: string } | { tool: string; input: object };

/** One request the scripted model received, as plain data. */
export interface Received {
  /** The extension that sent it. */
  from: string;
  tools: string[];
  messages: { role: 'user' | 'assistant'; parts: { text?: string; toolCall?: string; callId?: string; toolResult?: string; input?: unknown }[] }[];
}

interface ScriptedModel {
  script(turns: Part[][]): void;
  received(): Received[];
  turnsLeft(): number;
}

export interface ChatParticipantSample {
  /** What vscode.lm.selectChatModels finds for the scripted vendor: `vendor/id`. */
  models: string[];
  aoi: string;
  item: string;
  /** Every request the model received, in order (two per chat request: the tool calls, then the answer). */
  received: Received[];
  /** For each chat request: the POST /v0/orders sent meanwhile, by their dry_run flag. */
  orderPosts: boolean[][];
  ordersBefore: number;
  ordersAfter: number;
  error?: string;
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: ChatParticipantSample = { models: [], aoi: '', item: '', received: [], orderPosts: [], ordersBefore: -1, ordersAfter: -1 };
  const sandbox = await startSandbox();
  let model: ScriptedModel | undefined;
  try {
    const conn = await connectToSandbox(sandbox);
    const client = await conn.api.services.connection.getClient();
    const posts = watchOrderPosts(conn.api.services.connection);
    const fixture = vscode.extensions.getExtension<ScriptedModel>(SCRIPTED_MODEL_EXTENSION);
    if (!fixture) throw new Error(`${SCRIPTED_MODEL_EXTENSION} is not installed`);
    model = await fixture.activate();
    sample.models = (await vscode.lm.selectChatModels({ vendor: VENDOR })).map((m) => `${m.vendor}/${m.id}`);

    const [aoi] = await collect(client.aois.iterate({}, { pageSize: 100, cap: 100 }));
    const scene = (await client.archives.search({ limit: 1, collections: ['sentinel-2-l2a'] })).features[0];
    sample.aoi = aoi.name;
    sample.item = `${scene.collection}/${scene.id}`;
    const project = 'Water resources';

    // 1. Search and price.
    model.script([
      [
        { text: 'Searching the archive and pricing the scene. ' },
        { tool: TOOLS.searchArchive, input: { aoi: aoi.name, maxCloud: 30 } },
        { tool: TOOLS.priceOrder, input: { items: [sample.item], project } },
      ],
      [{ text: 'Scripted answer: the search and the price are above.' }],
    ]);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@eo find scenes over ${aoi.name} and price ${sample.item}` });
    await until('the first answer', () => model?.turnsLeft() === 0 && (model?.received().length ?? 0) >= 2, 120_000);
    if (file) fs.writeFileSync(`${file}.first`, JSON.stringify({ aoi: aoi.name, aoiId: aoi.aoi_id }));
    await until('the test to check the first answer', () => !!file && fs.existsSync(`${file}.go`), 180_000);
    sample.orderPosts.push(posts.take());

    // 2. Order: our priced quick pick, answered Cancel by the test.
    sample.ordersBefore = (await client.orders.listPage({ offset: 0, limit: 1 })).total ?? -1;
    model.script([
      [{ tool: TOOLS.placeOrder, input: { items: [sample.item], project, name: 'Ordered from @eo' } }],
      [{ text: 'Scripted answer: see the order tool.' }],
    ]);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@eo order ${sample.item}` });
    await until('the second answer', () => model?.turnsLeft() === 0 && (model?.received().length ?? 0) >= 4, 180_000);
    sample.orderPosts.push(posts.take());
    sample.ordersAfter = (await client.orders.listPage({ offset: 0, limit: 1 })).total ?? -1;
    posts.dispose();
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    sample.received = model?.received() ?? [];
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
