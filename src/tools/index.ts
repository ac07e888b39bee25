/**
 * The chat tools (`contributes.languageModelTools`): one module per tool, all registered here
 * through the one wrapper (`register.ts`). Registering makes no network call.
 */
import type * as vscode from 'vscode';
import { describeItemTool } from './describeItem';
import { listAoisTool } from './listAois';
import { listProjectsTool } from './listProjects';
import { placeOrderTool } from './placeOrder';
import { priceOrderTool } from './priceOrder';
import { registerTools, type ToolTable } from './register';
import { searchArchiveTool } from './searchArchive';
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
  };
}

export function registerChatTools(services: ToolServices): vscode.Disposable[] {
  return registerTools(services, toolTable(services));
}
