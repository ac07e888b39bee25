// Runs inside code-server's extension host as the tests module of a window where EO Imagery is
// installed the way a person installs it (not under development, not under test): activates it
// and writes down every callable reachable from what activate() returned.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

export interface ExportsSample {
  exportsType: string;
  callables: string[];
  error?: string;
}

/** Paths of every function reachable from `value` (own and inherited members, cycles cut). */
export function callablesOf(value: unknown, path = 'exports', seen = new Set<unknown>()): string[] {
  if (typeof value === 'function') return [path];
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  const out: string[] = [];
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key === 'constructor') continue;
      let member: unknown;
      try {
        member = (value as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      out.push(...callablesOf(member, `${path}.${key}`, seen));
    }
  }
  return out;
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: ExportsSample = { exportsType: 'unknown', callables: [] };
  try {
    const ext = vscode.extensions.getExtension('eo-imagery.eo-imagery');
    if (!ext) throw new Error('EO Imagery is not installed in this window');
    const exported: unknown = await ext.activate();
    sample.exportsType = exported === null ? 'null' : typeof exported;
    sample.callables = callablesOf(exported);
    // The commands are registered: the activation really ran.
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes('eoImagery.signIn')) throw new Error('EO Imagery activated but registered no commands');
  } catch (err) {
    sample.error = err instanceof Error ? err.message : String(err);
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
