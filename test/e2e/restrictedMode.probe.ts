// Runs inside code-server's extension host as the tests module of a window whose folder is in
// Restricted Mode (workspace trust on, the folder not trusted): signs in to an in-process
// sandbox, opens an insight file and records what the editor asked the service, then runs
// Validate (a deliberate act) and records again. Then invokes the chat tools as chat does
// (vscode.lm.invokeTool), with the window's real trust (no test override): the tools that
// order, write or run, and read-only ones, recording each answer and the requests other than
// GET. Writes the sample to EO_TEST_RESULT_FILE.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/commandIds';
import { TOOLS } from '../../src/tools/toolIds';
import { connectToSandbox, startSandbox } from '../integration/harness/sandbox';
import { planText } from '../../src/plans/planWrite';
import { samplePlan } from '../unit/plans/samplePlan';

export interface RestrictedSample {
  trusted: boolean;
  /** Requests the extension made after the file opened, until its diagnostics settled. */
  onOpen: string[];
  codesOnOpen: string[];
  /** Requests made by Validate Insight Input Against Block Spec. */
  onValidate: string[];
  codesAfterValidate: string[];
  /** An order plan opened: the requests made until its diagnostics settled, its codes, and the completions offered at its project id. */
  planOnOpen: string[];
  planCodesOnOpen: string[];
  planNote?: string;
  planCompletions: string[];
  /** The service's projects, read afterwards: none of them may have been offered. */
  projectNames: string[];
  /** Each tool invoked: its answer, and the requests other than GET made meanwhile. */
  tools: { name: string; text: string; sent: string[] }[];
  /** Files in the workspace folder after the tools ran. */
  files: string[];
  error?: string;
}

/** A tool's answer, or a sentence saying it did not answer (a prompt left open would hang the probe). */
async function invoke(name: string, input: object): Promise<string> {
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve(`(no answer within 30 s: something waited for the person)`), 30_000));
  const call = vscode.lm
    .invokeTool(name, { input, toolInvocationToken: undefined })
    .then((r) => r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''));
  return Promise.race([call, timeout]);
}

const FILE = {
  name: 'restricted check',
  block: { name: 'water-extent', version: '0.9.1' },
  input: [{ format: 'number', name: 'no_such_input', type: 'number', description: 'x', value: '1' }],
};

async function codesUntil(uri: vscode.Uri, done: (codes: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const codes = vscode.languages.getDiagnostics(uri).map((d) => String(d.code));
    if (done(codes)) return codes;
    if (Date.now() > deadline) throw new Error(`diagnostics never settled: ${codes.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: RestrictedSample = {
    trusted: vscode.workspace.isTrusted,
    onOpen: [],
    codesOnOpen: [],
    onValidate: [],
    codesAfterValidate: [],
    planOnOpen: [],
    planCodesOnOpen: [],
    planCompletions: [],
    projectNames: [],
    tools: [],
    files: [],
  };
  const sandbox = await startSandbox();
  try {
    const conn = await connectToSandbox(sandbox);
    let seen: string[] = sample.onOpen;
    const sub = conn.api.services.connection.onDidRequest((e) => seen.push(`${e.method} ${e.path}`));
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) throw new Error('the window has no folder');
    const uri = vscode.Uri.joinPath(folder, 'restricted.insight.json');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(FILE, null, 2)));
    await vscode.window.showTextDocument(uri);
    sample.codesOnOpen = await codesUntil(uri, (c) => c.includes('spec-restricted') || c.includes('input-unknown'));
    // Anything the opening would still send arrives within this wait.
    await new Promise((r) => setTimeout(r, 1500));
    seen = sample.onValidate;
    await vscode.commands.executeCommand(COMMANDS.validateInsight);
    sample.codesAfterValidate = await codesUntil(uri, (c) => c.includes('input-unknown'));

    // An order plan: its ids would be checked and completed against the service in a trusted window.
    seen = sample.planOnOpen;
    const plan = vscode.Uri.joinPath(folder, 'restricted.eoorder.json');
    const planned = planText(samplePlan());
    await vscode.workspace.fs.writeFile(plan, Buffer.from(planned));
    await vscode.window.showTextDocument(plan);
    sample.planCodesOnOpen = await codesUntil(plan, (c) => c.includes('service-restricted'));
    sample.planNote = vscode.languages.getDiagnostics(plan).find((d) => d.code === 'service-restricted')?.message;
    const inId = vscode.window.activeTextEditor!.document.positionAt(planned.indexOf('"prj-1"') + 2);
    const offered = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', plan, inId);
    sample.planCompletions = offered.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    await new Promise((r) => setTimeout(r, 1500));
    seen = [];

    const client = await conn.api.services.connection.getClient();
    sample.projectNames = (await client.projects.listPage()).items.map((p) => p.title || p.name);
    const item = (await client.archives.search({ limit: 1, collections: ['sentinel-2-l2a'] })).features[0];
    const calls: [string, object][] = [
      [TOOLS.placeOrder, { items: [`${item.collection}/${item.id}`], project: 'Water resources' }],
      [TOOLS.createInsightInput, { block: 'water-extent', aoi: 'Lake Mead', asset: 'Mosaic', name: 'restricted-chat' }],
      [TOOLS.startRun, { file: 'restricted.insight.json' }],
      [TOOLS.listProjects, {}],
      [TOOLS.searchArchive, { aoi: 'Lake Mead', maxCloud: 50 }],
      [TOOLS.priceOrder, { items: [`${item.collection}/${item.id}`], project: 'Water resources' }],
    ];
    for (const [name, input] of calls) {
      const sent: string[] = [];
      seen = sent;
      const text = await invoke(name, input);
      sample.tools.push({ name, text, sent: sent.filter((r) => !r.startsWith('GET ')) });
    }
    sample.files = (await vscode.workspace.fs.readDirectory(folder)).map(([n]) => n);
    sub.dispose();
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
