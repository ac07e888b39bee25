// Runs inside code-server's extension host as the tests module of a window that the e2e test
// drives with Playwright: signs in to an in-process sandbox and invokes the order tool twice
// as chat invokes it (vscode.lm.invokeTool, there is no model here). Each invocation opens
// EO Imagery's own priced confirmation in the workbench; the test answers it with the keyboard
// and the mouse. Records each answer and the POSTs sent meanwhile, writes `<result>.first`
// after the first invocation (so the test knows the next confirmation is the second one), and
// the sample to EO_TEST_RESULT_FILE.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { TOOLS } from '../../src/tools/toolIds';
import { connectToSandbox, startSandbox } from '../integration/harness/sandbox';
import { watchOrderPosts } from './orderPosts';

export interface ChatOrderSample {
  /** Each invocation: the tool's answer and the POST /v0/orders bodies' dry_run flags. */
  calls: { text: string; orderPosts: boolean[] }[];
  /** Orders the account holds before and after. */
  ordersBefore: number;
  ordersAfter: number;
  error?: string;
}

async function invoke(name: string, input: object): Promise<string> {
  const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: ChatOrderSample = { calls: [], ordersBefore: 0, ordersAfter: 0 };
  const sandbox = await startSandbox();
  try {
    const conn = await connectToSandbox(sandbox);
    const client = await conn.api.services.connection.getClient();
    const posts = watchOrderPosts(conn.api.services.connection);
    const item = (await client.archives.search({ limit: 1, collections: ['sentinel-2-l2a'] })).features[0];
    const input = { items: [`${item.collection}/${item.id}`], project: 'Water resources', name: 'Ordered from chat' };
    sample.ordersBefore = (await client.orders.listPage({ offset: 0, limit: 1 })).total ?? -1;
    for (const marker of ['first', 'second']) {
      posts.take();
      const text = await invoke(TOOLS.placeOrder, input);
      sample.calls.push({ text, orderPosts: posts.take() });
      if (file) fs.writeFileSync(`${file}.${marker}`, text);
    }
    sample.ordersAfter = (await client.orders.listPage({ offset: 0, limit: 1 })).total ?? -1;
    posts.dispose();
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
