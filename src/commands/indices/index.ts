import vscode = require('vscode');
import { INSIGHT_COMMANDS } from '../../insights/editor/commandIds';
import type { Visualization } from '../../api';
import type { ExtensionServices } from '../../services';
import { createIndex, createVisualization, listIndices, showVisualizationLegend, type AoiChildNode } from './commands';

export function registerIndexCommands(services: ExtensionServices): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(INSIGHT_COMMANDS.listIndices, () => listIndices(services)),
    vscode.commands.registerCommand(INSIGHT_COMMANDS.createIndex, () => createIndex(services)),
    vscode.commands.registerCommand(INSIGHT_COMMANDS.createVisualization, (node?: AoiChildNode) => createVisualization(services, node)),
    vscode.commands.registerCommand(INSIGHT_COMMANDS.showVisualizationLegend, (node?: { record?: Visualization }) =>
      showVisualizationLegend(services, node),
    ),
  ];
}
