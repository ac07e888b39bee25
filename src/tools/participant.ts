/**
 * The `@eo` chat participant, for where a language model is available: it hands the person's
 * question to `request.model` with the EO Imagery tools, runs the tools the model calls (each
 * through `vscode.lm.invokeTool` with the request's token, so chat shows them and their own
 * confirmations), and ends the answer with buttons (chatPrompt.ts decides which). The tools
 * never depend on it: they work from any chat or agent.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { COMMANDS } from '../commandIds';
import { safeText } from '../safeText';
import { describeError } from '../ui/showError';
import { priceRequestOf, readPriceInput } from './priceOrder';
import { buttonsFor, buttonTitle, promptTurns, type Button, type ToolCall, type Turn } from './chatPrompt';
import { findAoi } from './lookup';
import type { ToolServices } from './tool';
import { TOOLS } from './toolIds';

/** Rounds of tool calls in one answer: enough to search, price and draft; a loop stops here. */
const MAX_ROUNDS = 8;

const OURS = new Set<string>(Object.values(TOOLS));

/** The participant's handler; activation creates the participant (src/deferred.ts) and hands it each request. */
export function participantHandler(services: ToolServices): vscode.ChatRequestHandler {
  return (request, context, stream, token) => answer(services, request, context, stream, token);
}

function historyOf(context: vscode.ChatContext): Turn[] {
  return context.history.map((t) =>
    t instanceof vscode.ChatRequestTurn
      ? { role: 'user' as const, text: t.prompt }
      : {
          role: 'assistant' as const,
          text: t.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join(''),
        },
  );
}

const textOf = (r: vscode.LanguageModelToolResult): string => r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

async function answer(
  services: ToolServices,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const tools = vscode.lm.tools.filter((t) => OURS.has(t.name));
  const messages = promptTurns(historyOf(context), request.prompt).map((t) =>
    t.role === 'user' ? vscode.LanguageModelChatMessage.User(t.text) : vscode.LanguageModelChatMessage.Assistant(t.text),
  );
  const calls: ToolCall[] = [];
  try {
    for (let round = 0; round < MAX_ROUNDS && !token.isCancellationRequested; round++) {
      const response = await request.model.sendRequest(messages, { tools }, token);
      const asked: vscode.LanguageModelToolCallPart[] = [];
      let said = '';
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          // The model's own answer is markdown by design; chat renders it untrusted (no command
          // links run). What the tools quote reaches it as data in quotes (text.ts).
          // eslint-disable-next-line eo/untrusted-text -- the answer's formatting is the model's
          stream.markdown(part.value);
          said += part.value;
        } else if (part instanceof vscode.LanguageModelToolCallPart) asked.push(part);
      }
      if (!asked.length) break;
      messages.push(vscode.LanguageModelChatMessage.Assistant([...(said ? [new vscode.LanguageModelTextPart(said)] : []), ...asked]));
      for (const call of asked) {
        const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
        calls.push({ name: call.name, input: call.input, answer: textOf(result) });
        messages.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, result.content)]));
      }
    }
  } catch (err) {
    if (token.isCancellationRequested) return {};
    // The model (or a tool call) failed: said in the answer, as chat shows nothing else.
    stream.markdown(`\n\n${safeText(l10n.t('EO Imagery could not finish the answer: {0}', describeError(err)), 'markdown')}`);
  }
  for (const b of buttonsFor(calls)) {
    const command = await commandFor(services, b);
    if (command) stream.button(command);
  }
  return { metadata: { toolCalls: calls.map((c) => c.name) } };
}

/** The command behind a button; none when what it shows cannot be found any more. */
async function commandFor(services: ToolServices, b: Button): Promise<vscode.Command | undefined> {
  const title = buttonTitle(b);
  if (b.kind === 'openInput') {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    return folder ? { title, command: 'vscode.open', arguments: [vscode.Uri.joinPath(folder, b.file)] } : undefined;
  }
  try {
    const client = await services.connection.getClient();
    if (b.kind === 'savePlan') {
      const read = readPriceInput(b.input);
      const order = read.ok ? await priceRequestOf(client, read.value) : undefined;
      if (!order?.ok) return undefined;
      const { items, labels, projectLabel } = order.value;
      return { title, command: COMMANDS.saveOrderPlan, arguments: [{ items, labels: { ...labels, project: projectLabel } }] };
    }
    if (b.kind === 'showAoi') {
      const found = await findAoi(client, b.aoi);
      return found.ok ? { title, command: COMMANDS.showOnMap, arguments: [{ kind: 'aoi', record: found.value }] } : undefined;
    }
    const item = await client.archives.item(b.collection, b.id);
    return { title, command: COMMANDS.showOnMap, arguments: [{ kind: 'archiveItem', record: item }] };
  } catch (err) {
    // Recovers: a button is a courtesy under an answer already given.
    services.log.warn(`Chat: no "${title}" button: ${describeError(err)}`);
    return undefined;
  }
}
