/**
 * The entry of dist/features.js: everything activation does not need, required once on first
 * use (a command, a visible view, a panel brought back, a link, a chat tool, an insight input
 * or saved file opened; see src/deferred.ts). It builds the sidebar, the panels, the commands
 * and the chat tools on the services activation built (connection, prompts, watcher), which
 * live in dist/extension.js alone: esbuild.mjs resolves this bundle's imports of them there.
 * No network call happens here either.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { createAoi } from './commands/aois/createAoi';
import { assetCommands } from './commands/assets/downloadAssets';
import { connectionCommands } from './commands/connection';
import { promptSignIn } from './commands/connection/signIn';
import { copyAsCommands } from './commands/copyAs';
import { explorerCommands } from './commands/explorer';
import { imageryCommands } from './commands/imagery';
import { indexCommands } from './commands/indices';
import { insightCommands } from './commands/insights';
import { mapCommands } from './commands/map';
import { orderingCommands } from './commands/orders/register';
import { registerCommands, type CommandTable } from './commands/register';
import { searchFileCommands } from './commands/searchFiles';
import { saveSearch } from './commands/searchFiles/saveSearch';
import type { CommandServices } from './commands/services';
import { shareViewCommands } from './commands/shareView';
import { orderPlanCommands } from './commands/orderPlans';
import { visualizationStyleCommands } from './commands/visualizations';
import { visualizationCommands } from './commands/visualizations/showServiceRendering';
import { watchCommands } from './commands/watch';
import { workflowCommands } from './commands/workflows';
import type { DeferredTargets } from './deferred';
import { createSidebar } from './explorer';
import type { TreeViewFactory } from './explorer/explorer';
import { Panels } from './panels';
import type { ExtensionServices } from './services';
import { chatTools, type ChatTools } from './tools';
import { participantHandler } from './tools/participant';
import type { Watcher } from './watch/watcher';

/** What activation hands the features: the services it built and the views it created. */
export interface Core {
  readonly base: ExtensionServices;
  readonly watcher: Watcher;
  readonly views: TreeViewFactory;
  /** Opens the Get Started walkthrough (the walkthrough itself lives in activation). */
  readonly openWalkthrough: () => Promise<void>;
  /** False in Restricted Mode (tests can pretend either way). */
  readonly trusted: () => boolean;
}

export interface Features extends DeferredTargets, vscode.Disposable {
  readonly services: CommandServices;
  readonly chatTools: ChatTools;
  /** The Accounts menu's sign-in: the same prompts as the Sign In command. */
  promptSignIn(): Promise<string | undefined>;
  /** Milliseconds spent in each step of `start`. */
  readonly profile: Record<string, number>;
}

/**
 * Builds the parts in dependency order (the sidebar; the panels, which reveal rows in it; the
 * commands, which use all of them) and registers the commands, which activation's stubs run.
 */
export function start(core: Core): Features {
  const { base, watcher, trusted } = core;
  const profile: Record<string, number> = {};
  let mark = performance.now();
  const step = <T>(name: string, make: () => T): T => {
    const result = make();
    const now = performance.now();
    profile[name] = now - mark;
    mark = now;
    return result;
  };

  const sidebar = step('explorer', () => createSidebar(base, watcher, core.views));
  const { explorer } = sidebar;
  const panels = step(
    'panels',
    () =>
      new Panels(base, {
        revealInSidebar: async (ref, options) => (await explorer.reveal(ref.kind, ref.id, options)) !== undefined,
        createAoi: (draft) => createAoi(base, draft),
        saveSearch: async (params) => void (await saveSearch(services, params)),
      }),
  );
  const services: CommandServices = { ...base, explorer, panels, watcher };

  // Every command goes through the wrapper (src/commands/register.ts): one table per area.
  const commands = (name: string, table: () => CommandTable): vscode.Disposable[] => step(name, () => registerCommands(services, table()));
  const insights = step('insights', () => insightCommands(services));
  const copyAs = step('copyAs', () => copyAsCommands(services));
  const searchFiles = step('searchFiles', () => searchFileCommands(services));
  const workflows = step('workflows', () => workflowCommands(services));
  const shareView = step('shareView', () => shareViewCommands(services));
  const orderPlans = step('orderPlans', () => orderPlanCommands(services, trusted));
  const toolServices = { ...services, diagnostics: insights.diagnostics, trusted };
  const tools = step('chatTools', () => chatTools(toolServices));
  const disposable = vscode.Disposable.from(
    sidebar,
    panels,
    ...insights.disposables,
    copyAs.history,
    ...searchFiles.disposables,
    ...shareView.disposables,
    ...orderPlans.disposables,
    ...workflows.disposables,
    ...commands('connection', () => connectionCommands(services)),
    ...commands('explorerCommands', () => explorerCommands(services, explorer, sidebar.docs)),
    ...commands('insightCommands', () => insights.commands),
    ...commands('indices', () => indexCommands(services)),
    ...commands('ordering', () => orderingCommands(services)),
    ...commands('map', () => mapCommands(services)),
    ...commands('copyAsCommands', () => copyAs.commands),
    ...commands('searchFileCommands', () => searchFiles.commands),
    ...commands('walkthroughCommands', () => ({ getStarted: { action: l10n.t('Get Started'), retry: 'never', run: core.openWalkthrough } })),
    ...commands('imagery', () => imageryCommands(services)),
    ...commands('visualizations', () => visualizationCommands(services)),
    ...commands('visualizationStyles', () => visualizationStyleCommands(services)),
    ...commands('workflowCommands', () => workflows.commands),
    ...commands('assets', () => assetCommands(services)),
    ...commands('watch', () => watchCommands(services)),
    ...commands('shareView', () => shareView.commands),
    ...commands('orderPlans', () => orderPlans.commands),
  );
  return {
    services,
    chatTools: tools,
    serializers: panels.serializers,
    uriHandler: shareView.uriHandler,
    checkTasks: orderPlans.checkTasks,
    participant: participantHandler(toolServices),
    tools: tools.implementations,
    promptSignIn: () => promptSignIn(services),
    profile,
    dispose: () => disposable.dispose(),
  };
}
