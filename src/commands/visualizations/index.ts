import vscode = require('vscode');
import { COMMANDS } from '../../commandIds';
import type { CommandServices } from '../services';
import { exportSld } from './exportSld';
import { revertColourRange } from './revertColourRange';
import { saveColourRange } from './saveColourRange';

/** A visualization's styling on the service: Save Colour Range to Service, Revert Colour Range, Export SLD Style…. */
export function registerVisualizationStyles(services: CommandServices): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.saveColourRange, (arg?: unknown) => saveColourRange(services, arg)),
    vscode.commands.registerCommand(COMMANDS.revertColourRange, (arg?: unknown) => revertColourRange(services, arg)),
    vscode.commands.registerCommand(COMMANDS.exportSld, (arg?: unknown) => exportSld(services, arg)),
  ];
}
