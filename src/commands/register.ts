/**
 * The one way a command is registered. Each area exports a table of handlers keyed by command
 * name (`commandIds.ts`); `registerCommands` reads each command's arguments into the typed
 * input its handler takes (`./args`), runs it, and owns what happens when it fails: silence
 * when the person cancelled, otherwise one notification through `showError` (Sign In, Retry
 * where the command allows it, Show Log) and one line in the log. Handlers therefore catch
 * only what they recover from.
 */
import vscode = require('vscode');
import { isCancellation } from '../api/errors';
import { COMMANDS, type CommandName } from '../commandIds';
import type { ExtensionServices } from '../services';
import { showError } from '../ui/showError';
import { READERS, type InputOf } from './args';

/**
 * Whether a failed run may be offered again with Retry:
 * - `transient`: a failure that may pass (unreachable, timed out, 5xx, 429) offers Retry,
 *   which runs the handler again with the same arguments;
 * - `never`: the command creates or costs something (an order, a run, a store, a download
 *   link, an AOI…). Its POST goes out once per decision: the person starts it again
 *   themselves, after looking at what happened.
 */
export type RetryPolicy = 'transient' | 'never';

export interface Handler<T> {
  /** What the person was doing, in words: the error reads "<action> failed: <reason>". */
  readonly action: string;
  readonly retry: RetryPolicy;
  run(input: T): unknown;
}

/** An area's commands: the handler of each, typed by what its reader makes of the arguments. */
export type CommandTable = { readonly [K in CommandName]?: Handler<InputOf<K>> };

/** Registers every command of `table`; activate() pushes the disposables. */
export function registerCommands(services: ExtensionServices, table: CommandTable): vscode.Disposable[] {
  return (Object.keys(table) as CommandName[]).map((name) => {
    const handler = table[name] as Handler<unknown>;
    const read = READERS[name] as (...args: unknown[]) => unknown;
    return registerHandler(services, COMMANDS[name], (...args) => read(...args), handler);
  });
}

/**
 * Registers `handler` under `id`, reading its input with `read`. Exported for the integration
 * test of this wrapper (it registers commands of its own); the extension registers only
 * through `registerCommands`.
 */
export function registerHandler<T>(services: ExtensionServices, id: string, read: (...args: unknown[]) => T, handler: Handler<T>): vscode.Disposable {
  const invoke = async (args: unknown[]): Promise<unknown> => {
    try {
      return await handler.run(read(...args));
    } catch (err) {
      // Recovers from every failure of a command the one way: shown once, with a way forward.
      if (isCancellation(err)) return undefined;
      const retry = handler.retry === 'transient' ? () => invoke(args) : undefined;
      await showError(services, handler.action, err, retry);
      return undefined;
    }
  };
  return vscode.commands.registerCommand(id, (...args: unknown[]) => invoke(args));
}
