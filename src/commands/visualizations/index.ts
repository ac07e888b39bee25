import { l10n } from 'vscode';
import type { CommandTable } from '../register';
import type { CommandServices } from '../services';
import { exportSld } from './exportSld';
import { revertColourRange } from './revertColourRange';
import { saveColourRange } from './saveColourRange';

/** A visualization's styling on the service: Save Colour Range to Service, Revert Colour Range, Export SLD Style…. */
export function visualizationStyleCommands(services: CommandServices): CommandTable {
  return {
    saveColourRange: { action: l10n.t('Save colour range to the service'), retry: 'never', run: (target) => saveColourRange(services, target) },
    revertColourRange: { action: l10n.t('Revert colour range'), retry: 'never', run: (vis) => revertColourRange(services, vis) },
    exportSld: { action: l10n.t('Export SLD style'), retry: 'transient', run: (vis) => exportSld(services, vis) },
  };
}
