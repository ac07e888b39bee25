import vscode = require('vscode');
import { COMMANDS } from '../../commandIds';
import type { Visualization } from '../../api';
import type { ExtensionServices } from '../../services';
import { createIndex, createVisualization, listIndices, showVisualizationLegend, type AoiChildNode } from './commands';

export function registerIndexCommands(services: ExtensionServices): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.listIndices, () => listIndices(services)),
    vscode.commands.registerCommand(COMMANDS.createIndex, () => createIndex(services)),
    vscode.commands.registerCommand(COMMANDS.createVisualization, (node?: AoiChildNode) => createVisualization(services, node)),
    vscode.commands.registerCommand(COMMANDS.showVisualizationLegend, (node?: { record?: Visualization }) => showVisualizationLegend(services, node)),
  ];
}
