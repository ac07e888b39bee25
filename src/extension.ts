import { loadStart } from './loadStart';
import vscode = require('vscode');
import { l10n } from 'vscode';
import * as pureL10n from '@vscode/l10n';
import { EoAuthenticationProvider, registerAuthProvider } from './auth/authProvider';
import { Connection } from './auth/connection';
import { createConnectionStatusBar } from './auth/statusBar';
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
import { searchFileCommands } from './commands/searchFiles';
import { registerCommands, type CommandTable } from './commands/register';
import { saveSearch } from './commands/searchFiles/saveSearch';
import type { CommandServices } from './commands/services';
import { visualizationCommands } from './commands/visualizations/showServiceRendering';
import { visualizationStyleCommands } from './commands/visualizations';
import { workflowCommands } from './commands/workflows';
import { createSidebar } from './explorer';
import { Panels } from './panels';
import type { ExtensionServices } from './services';
import { PromptSeam, type Prompts } from './ui/prompts';
import { registerChatTools } from './tools';
import { registerParticipant } from './tools/participant';
import type { ToolName } from './tools/toolIds';
import { registerWalkthrough, type WalkthroughApi } from './walkthrough';
import { createPendingStatusItem } from './watch/statusItem';
import { Watcher } from './watch/watcher';
import { watchCommands } from './commands/watch';
import { shareViewCommands } from './commands/shareView';

/**
 * What `activate()` returns when VS Code runs the extension for its tests (and only then):
 * integration tests reach the extension's seams through it. Any other extension can read our
 * exports, so a normal (or development) activation returns nothing: otherwise another
 * extension could answer our prompts, "Place Order" included, and spend the person's money.
 */
export interface EoImageryApi {
  readonly services: CommandServices;
  readonly testing: {
    /** Answers every prompt from `prompts` until the returned function is called. */
    usePrompts(prompts: Prompts): () => void;
    /** The walkthrough's observed steps and its once-only offer. */
    walkthrough: WalkthroughApi;
    /** Milliseconds spent loading the bundle and in each registration step of activate(). */
    activationProfile: Record<string, number>;
    /** Makes the chat tools see a trusted (false) or untrusted (true) workspace; undefined: the real one. */
    restrictedMode(on: boolean | undefined): void;
    /** What a chat tool's `prepareInvocation` answers for this input (the registered tool's own). */
    prepareTool(name: ToolName, input: unknown): vscode.PreparedToolInvocation | undefined;
    /** A chat tool's answer, run in this extension host without VS Code's round trip. */
    answerTool(name: ToolName, input: unknown): Promise<string | undefined>;
  };
}

/**
 * Builds the services in dependency order (connection and prompts; the sidebar; the panels,
 * which reveal rows in the sidebar; the commands, which use all of them) and registers
 * everything. No network call happens here: the first call is made when a view asks for data
 * or the person runs a command.
 */
export function activate(context: vscode.ExtensionContext): EoImageryApi | undefined {
  const profile: Record<string, number> = {};
  let mark = performance.now();
  profile.load = mark - loadStart;
  // Pure modules (the validator, row wording) cannot import vscode; they speak through
  // @vscode/l10n, which gets the editor's translations here, before any of them runs.
  if (vscode.l10n.bundle) pureL10n.config({ contents: vscode.l10n.bundle });
  const step = <T>(name: string, register: () => T): T => {
    const result = register();
    const now = performance.now();
    profile[name] = now - mark;
    mark = now;
    return result;
  };

  const log = vscode.window.createOutputChannel('EO Imagery', { log: true });
  const connection = new Connection(context, log);
  const ui = new PromptSeam();
  const base: ExtensionServices = { context, log, connection, ui };
  const accounts = new EoAuthenticationProvider(
    connection,
    () => promptSignIn(services),
    (text) => void ui.message('info', text, {}),
  );
  base.accounts = accounts;
  // Reads what it follows from the global state; its first request waits until something is due.
  const watcher = step('watcher', () => new Watcher({ state: context.globalState, connection, log, ui }));
  const sidebar = step('explorer', () => createSidebar(base, watcher));
  const { explorer } = sidebar;
  const panels = new Panels(base, {
    revealInSidebar: async (ref, options) => (await explorer.reveal(ref.kind, ref.id, options)) !== undefined,
    createAoi: (draft) => createAoi(base, draft),
    saveSearch: async (params) => void (await saveSearch(services, params)),
  });
  const services: CommandServices = { ...base, explorer, panels, watcher };
  const walkthrough = step('walkthrough', () => registerWalkthrough(services));

  // Every command goes through the wrapper (src/commands/register.ts): one table per area.
  const commands = (name: string, table: () => CommandTable): vscode.Disposable[] => step(name, () => registerCommands(services, table()));
  const insights = step('insights', () => insightCommands(services));
  const copyAs = step('copyAs', () => copyAsCommands(services));
  const searchFiles = step('searchFiles', () => searchFileCommands(services));
  const workflows = step('workflows', () => workflowCommands(services));
  // Set only by the test API below (which exists in test mode only).
  let restricted: boolean | undefined;
  const trusted = (): boolean => (restricted === undefined ? vscode.workspace.isTrusted : !restricted);
  const shareView = step('shareView', () => shareViewCommands(services));
  const chatTools = step('chatTools', () => registerChatTools({ ...services, diagnostics: insights.diagnostics, trusted }));
  context.subscriptions.push(
    log,
    connection,
    watcher,
    sidebar,
    ...panels.register(),
    step('statusBar', () => createConnectionStatusBar(connection)),
    step('pendingStatusBar', () => createPendingStatusItem(watcher)),
    step('accounts', () => registerAuthProvider(accounts)),
    walkthrough.disposable,
    ...insights.disposables,
    copyAs.history,
    ...searchFiles.disposables,
    ...shareView.disposables,
    ...commands('connection', () => connectionCommands(services)),
    ...commands('explorerCommands', () => explorerCommands(services, explorer, sidebar.docs)),
    ...commands('insightCommands', () => insights.commands),
    ...commands('indices', () => indexCommands(services)),
    ...commands('ordering', () => orderingCommands(services)),
    ...commands('map', () => mapCommands(services)),
    ...commands('copyAsCommands', () => copyAs.commands),
    ...commands('searchFileCommands', () => searchFiles.commands),
    ...commands('walkthroughCommands', () => ({ getStarted: { action: l10n.t('Get Started'), retry: 'never', run: walkthrough.open } })),
    ...commands('imagery', () => imageryCommands(services)),
    ...commands('visualizations', () => visualizationCommands(services)),
    ...commands('visualizationStyles', () => visualizationStyleCommands(services)),
    ...workflows.disposables,
    ...commands('workflowCommands', () => workflows.commands),
    ...commands('assets', () => assetCommands(services)),
    ...chatTools.disposables,
    step('chatParticipant', () => registerParticipant({ ...services, diagnostics: insights.diagnostics, trusted })),
    ...commands('watch', () => watchCommands(services)),
    ...commands('shareView', () => shareView.commands),
  );
  // Offered once after an install (an extension under development or test is not installed;
  // tests call offerOnce themselves). Opening an editor is no network work.
  if (context.extensionMode === vscode.ExtensionMode.Production) void walkthrough.api.offerOnce();
  void connection.refreshState();
  const total = Object.values(profile).reduce((a, b) => a + b, 0);
  log.debug(
    `Activated in ${total.toFixed(1)} ms (${Object.entries(profile)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')})`,
  );

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    services,
    testing: {
      usePrompts: (p) => ui.use(p),
      activationProfile: profile,
      walkthrough: walkthrough.api,
      restrictedMode: (on) => (restricted = on),
      prepareTool: (name, input) => chatTools.prepare(name, input),
      answerTool: (name, input) => chatTools.answer(name, input),
    },
  };
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
