/**
 * The chat tools (`contributes.languageModelTools`): one module per tool, all answered here
 * through the one wrapper (`register.ts`). Building them makes no network call.
 */
import vscode = require('vscode');
import { createInsightInputTool } from './createInsightInput';
import { describeItemTool } from './describeItem';
import { estimateRunTool } from './estimateRun';
import { listBlocksTool } from './listBlocks';
import { listAoisTool } from './listAois';
import { listProjectsTool } from './listProjects';
import { placeOrderTool } from './placeOrder';
import { priceOrderTool } from './priceOrder';
import { answerFor, prepare, toolImplementations, type ToolTable } from './register';
import { searchArchiveTool } from './searchArchive';
import { searchImageryTool } from './searchImagery';
import { showOnMapTool } from './showOnMap';
import { startRunTool } from './startRun';
import { statusTool } from './status';
import { validateInsightTool } from './validateInsight';
import type { ToolServices } from './tool';
import type { ToolName } from './toolIds';

export type { ToolServices } from './tool';

export function toolTable(services: ToolServices): ToolTable {
  return {
    listProjects: listProjectsTool(services),
    listAois: listAoisTool(services),
    searchArchive: searchArchiveTool(services),
    searchImagery: searchImageryTool(services),
    describeItem: describeItemTool(services),
    priceOrder: priceOrderTool(services),
    placeOrder: placeOrderTool(services),
    listBlocks: listBlocksTool(services),
    createInsightInput: createInsightInputTool(services),
    validateInsight: validateInsightTool(services),
    showOnMap: showOnMapTool(services),
    estimateRun: estimateRunTool(services),
    startRun: startRunTool(services),
    status: statusTool(services),
  };
}

export interface ChatTools {
  /** What VS Code calls for each tool (activation registered them all, src/deferred.ts). */
  readonly implementations: { readonly [K in ToolName]?: vscode.LanguageModelTool<unknown> };
  /** What `prepareInvocation` answers for `name` with `input` (the test API hands it to tests). */
  prepare(name: ToolName, input: unknown): vscode.PreparedToolInvocation | undefined;
  /** The answer `invoke` would give, without VS Code's round trip (the test API hands it to the benchmark). */
  answer(name: ToolName, input: unknown): Promise<string | undefined>;
}

export function chatTools(services: ToolServices): ChatTools {
  const table = toolTable(services);
  return {
    implementations: toolImplementations(services, table),
    prepare: (name, input) => {
      const handler = table[name];
      return handler && prepare(services, handler, input);
    },
    answer: async (name, input) => {
      const handler = table[name];
      return handler && answerFor(services, handler, input, new vscode.CancellationTokenSource().token);
    },
  };
}
