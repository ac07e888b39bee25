/**
 * The chat tools (`contributes.languageModelTools`): one module per tool, all registered here
 * through the one wrapper (`register.ts`). Registering makes no network call.
 */
import type * as vscode from 'vscode';
import { createInsightInputTool } from './createInsightInput';
import { describeItemTool } from './describeItem';
import { estimateRunTool } from './estimateRun';
import { listBlocksTool } from './listBlocks';
import { listAoisTool } from './listAois';
import { listProjectsTool } from './listProjects';
import { placeOrderTool } from './placeOrder';
import { priceOrderTool } from './priceOrder';
import { registerTools, type ToolTable } from './register';
import { searchArchiveTool } from './searchArchive';
import { showOnMapTool } from './showOnMap';
import { startRunTool } from './startRun';
import { statusTool } from './status';
import { validateInsightTool } from './validateInsight';
import type { ToolServices } from './tool';

export type { ToolServices } from './tool';

export function toolTable(services: ToolServices): ToolTable {
  return {
    listProjects: listProjectsTool(services),
    listAois: listAoisTool(services),
    searchArchive: searchArchiveTool(services),
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

export function registerChatTools(services: ToolServices): vscode.Disposable[] {
  return registerTools(services, toolTable(services));
}
