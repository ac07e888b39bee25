/**
 * Order plans (`*.eoorder.json`) in the editor: diagnostics, the quick fix, completion from
 * the service, the Price and Place Order… lenses, Open as Order Plan, and the task that runs
 * the check command (dist/check.js) over the workspace's files with a problem matcher.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { CommandTable } from '../register';
import type { CommandServices } from '../services';
import { PlanCodeActions, PlanCompletions, PlanDiagnostics, PlanLenses, PLAN_SELECTOR } from './planEditor';
import { placePlan, planDocument, pricePlan } from './placePlan';
import { openOrderAsPlan, savePlan } from './savePlan';
import { ServiceFactsSource } from './serviceFacts';
import { checkTaskProvider } from './checkTask';

export function orderPlanCommands(
  services: CommandServices,
  trusted: () => boolean,
): { commands: CommandTable; disposables: vscode.Disposable[]; diagnostics: PlanDiagnostics; checkTasks: vscode.TaskProvider } {
  const deps = { connection: services.connection, facts: new ServiceFactsSource(), trusted, log: services.log };
  const diagnostics = new PlanDiagnostics(deps);
  const lenses = new PlanLenses(diagnostics);
  const commands: CommandTable = {
    // A dry run orders nothing: asking again is safe.
    pricePlan: {
      action: l10n.t('Price order plan'),
      retry: 'transient',
      run: async (uri) => {
        const doc = await planDocument(services, uri);
        const price = doc && (await pricePlan(services, doc));
        if (doc && price) lenses.setPrice(doc, price);
        return price;
      },
    },
    // The order POST goes out once, after the priced confirmation: never retried.
    placePlan: {
      action: l10n.t('Place order from plan'),
      retry: 'never',
      run: async (uri) => {
        const doc = await planDocument(services, uri);
        const order = doc && (await placePlan(services, doc));
        lenses.refresh();
        return order;
      },
    },
    saveOrderPlan: {
      action: l10n.t('Save as order plan'),
      retry: 'never',
      run: async (draft) =>
        draft
          ? savePlan(services, draft)
          : services.ui.message('info', l10n.t('Price an order first (the order wizards or the chat), then save it as a plan.'), {}),
    },
    openOrderAsPlan: { action: l10n.t('Open as order plan'), retry: 'never', run: (order) => openOrderAsPlan(services, order) },
  };
  const disposables = [
    diagnostics,
    lenses,
    vscode.languages.registerCodeLensProvider(PLAN_SELECTOR, lenses),
    vscode.languages.registerCodeActionsProvider(PLAN_SELECTOR, new PlanCodeActions(diagnostics), { providedCodeActionKinds: PlanCodeActions.kinds }),
    vscode.languages.registerCompletionItemProvider(PLAN_SELECTOR, new PlanCompletions(deps), '"'),
  ];
  return { commands, disposables, diagnostics, checkTasks: checkTaskProvider(services.context.extensionUri) };
}
