// Runs inside code-server's extension host as the tests module of a window whose folder is in
// Restricted Mode (workspace trust on, the folder not trusted): signs in to an in-process
// sandbox, opens an insight file and records what the editor asked the service, then runs
// Validate (a deliberate act) and records again. Writes the sample to EO_TEST_RESULT_FILE.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/commandIds';
import { connectToSandbox, startSandbox } from '../integration/harness/sandbox';

export interface RestrictedSample {
  trusted: boolean;
  /** Requests the extension made after the file opened, until its diagnostics settled. */
  onOpen: string[];
  codesOnOpen: string[];
  /** Requests made by Validate Insight Input Against Block Spec. */
  onValidate: string[];
  codesAfterValidate: string[];
  error?: string;
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
  const sample: RestrictedSample = { trusted: vscode.workspace.isTrusted, onOpen: [], codesOnOpen: [], onValidate: [], codesAfterValidate: [] };
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
    sub.dispose();
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
