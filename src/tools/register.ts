/**
 * The one way a chat tool is registered, like the commands' wrapper: it reads the input into
 * the tool's typed value (a problem is answered in words, naming the field), refuses tools that
 * write or cost in Restricted Mode, runs the tool, and turns any failure into a sentence with
 * the way forward (sign in, call again) instead of an exception. No network work here: tools
 * call the service only when invoked.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { isCancellation, isTransient, needsSignIn, NotSignedInError } from '../api';
import { safeText } from '../safeText';
import { describeError, failedText, StepFailure } from '../ui/showError';
import { answer, dataNotice, quoted } from './text';
import type { AnyTool, ToolServices } from './tool';
import type { ToolName } from './toolIds';

export type ToolTable = { readonly [K in ToolName]?: AnyTool };

/**
 * What VS Code calls for each tool of `table`. Activation registers every tool of the manifest
 * under its name (src/deferred.ts) and hands each call to these once the features are loaded.
 */
export function toolImplementations(services: ToolServices, table: ToolTable): { readonly [K in ToolName]?: vscode.LanguageModelTool<unknown> } {
  const entries = (Object.keys(table) as ToolName[]).map((name): [ToolName, vscode.LanguageModelTool<unknown>] => {
    const handler = table[name] as AnyTool;
    return [
      name,
      {
        prepareInvocation: (options) => prepare(services, handler, options.input),
        invoke: async (options, token) => {
          const text = await answerFor(services, handler, options.input, token);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
        },
      },
    ];
  });
  return Object.fromEntries(entries);
}

/** What chat shows before and while a tool runs: its progress line, and for a tool that acts, what it will do. */
export function prepare(services: ToolServices, handler: AnyTool, input: unknown): vscode.PreparedToolInvocation {
  const read = handler.read(input);
  if (!read.ok) return { invocationMessage: l10n.t('{0}: checking the request', handler.action) };
  if (refusedHere(services, handler)) return { invocationMessage: l10n.t('{0}: not available in Restricted Mode', handler.action) };
  const confirm = handler.confirm?.(read.value);
  // Both quote the model's input. Chat shows the progress line as plain text and renders the
  // confirmation's message as markdown (a MarkdownString, so that a dialog outside chat
  // renders it too): each gets its sink's safe form.
  return {
    invocationMessage: safeText(handler.progress(read.value), 'line'),
    confirmationMessages: confirm && {
      title: safeText(confirm.title, 'line'),
      message: new vscode.MarkdownString().appendMarkdown(safeText(confirm.message, 'markdown')),
    },
  };
}

function refusedHere(services: ToolServices, handler: AnyTool): boolean {
  return (handler.kind === 'writes' || handler.kind === 'costs') && !services.trusted();
}

/** The tool's answer, or a sentence saying why there is none. Never throws. */
export async function answerFor(services: ToolServices, handler: AnyTool, input: unknown, token: vscode.CancellationToken): Promise<string> {
  const read = handler.read(input);
  if (!read.ok) return answer(l10n.t('Nothing was done: the input has problems.'), ...read.problems.map((p) => `- ${p}`));
  if (refusedHere(services, handler)) {
    return handler.kind === 'costs'
      ? l10n.t(
          '{0} is not available in Restricted Mode: this workspace is not trusted, and the tool can spend money or tokens. The person can trust the workspace (Manage Workspace Trust) and ask again.',
          handler.action,
        )
      : l10n.t(
          '{0} is not available in Restricted Mode: this workspace is not trusted, and the tool writes files into it. The person can trust the workspace (Manage Workspace Trust) and ask again.',
          handler.action,
        );
  }
  try {
    return await handler.run(read.value, token);
  } catch (err) {
    services.log.warn(`Chat tool: ${failedText(handler.action, describeError(err))}`);
    return failureAnswer(handler, err);
  }
}

function failureAnswer(handler: AnyTool, err: unknown): string {
  if (isCancellation(err)) return l10n.t('{0} stopped: it was cancelled. Nothing more was done.', handler.action);
  const cause = err instanceof StepFailure ? err.cause : err;
  if (cause instanceof NotSignedInError) {
    return l10n.t(
      '{0}: not signed in to the imagery service. Ask the person to run "EO Imagery: Sign In" from the Command Palette (or "EO Imagery: Try the Sandbox" to try it with sample data), then call again.',
      handler.action,
    );
  }
  if (needsSignIn(cause)) {
    return l10n.t(
      '{0}: the service refused the saved sign-in (it may have expired). Ask the person to run "EO Imagery: Sign In" again, then call again.',
      handler.action,
    );
  }
  // The reason can be the service's own words: data, like every value it sent.
  const text = failedText(handler.action, quoted(describeError(err), 400));
  return answer(dataNotice(), isTransient(cause) && handler.kind !== 'costs' ? `${text} ${l10n.t('This may pass: calling again is safe.')}` : text);
}
