import { l10n } from 'vscode';
import type { ExtensionServices } from '../../services';
import type { CommandTable } from '../register';
import { createIndex, createVisualization, listIndices, showVisualizationLegend } from './commands';

/** Indices and visualizations; creating either is a POST that makes a record: never retried. */
export function indexCommands(services: ExtensionServices): CommandTable {
  return {
    listIndices: { action: l10n.t('List indices'), retry: 'transient', run: () => listIndices(services) },
    createIndex: { action: l10n.t('Create custom index'), retry: 'never', run: () => createIndex(services) },
    createVisualization: { action: l10n.t('Create visualization'), retry: 'never', run: (aoi) => createVisualization(services, aoi) },
    showVisualizationLegend: { action: l10n.t('Show legend'), retry: 'transient', run: (vis) => showVisualizationLegend(services, vis) },
  };
}
