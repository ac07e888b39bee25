/**
 * What one chat tool is: how it reads its input, what it says while it runs, what it does.
 * Each tool is one module of this folder; `index.ts` puts them in the table the one
 * wrapper (`register.ts`) answers through. A tool never spends or writes by itself: orders and runs go through the same
 * priced confirmation a person answers in the commands.
 */
import type * as vscode from 'vscode';
import type { CommandServices } from '../commands/services';
import type { InsightDiagnostics } from '../insights/editor/diagnostics';
import type { Read } from './input';

/**
 * - `reads`: asks the service, changes nothing;
 * - `shows`: also opens something in the window (the map);
 * - `writes`: writes a file in the workspace;
 * - `costs`: may spend money or tokens, only on the person's deliberate pick in our own priced confirmation.
 * Tools that write or cost refuse in Restricted Mode.
 */
export type ToolKind = 'reads' | 'shows' | 'writes' | 'costs';

export interface ToolServices extends CommandServices {
  /** The insight files' validator (the Problems view's), shared with the commands. */
  readonly diagnostics: InsightDiagnostics;
  /** False in Restricted Mode. */
  trusted(): boolean;
}

export interface ToolHandler<I> {
  readonly kind: ToolKind;
  /** What the tool does, in words: a failure reads "<action> failed: <reason>". */
  readonly action: string;
  read(input: unknown): Read<I>;
  /** Shown while the tool runs ("Searching the archive over Lake Mead…"). */
  progress(input: I): string;
  /** For a tool that acts in the window: what it will do, asked by chat before it runs. */
  confirm?(input: I): { title: string; message: string };
  /** The answer for the model, in words (see text.ts). */
  run(input: I, token: vscode.CancellationToken): Promise<string>;
}

/** A handler with its input type erased, for the table. */
export interface AnyTool {
  readonly kind: ToolKind;
  readonly action: string;
  read(input: unknown): Read<unknown>;
  progress(input: unknown): string;
  confirm?(input: unknown): { title: string; message: string };
  run(input: unknown, token: vscode.CancellationToken): Promise<string>;
}

/** Types a handler against its own input, then erases the type for the table. */
export function tool<I>(handler: ToolHandler<I>): AnyTool {
  return handler as unknown as AnyTool;
}
