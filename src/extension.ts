import { loadStart } from './loadStart';
import vscode = require('vscode');
import * as pureL10n from '@vscode/l10n';
import { EoAuthenticationProvider, registerAuthProvider } from './auth/authProvider';
import { Connection } from './auth/connection';
import { createConnectionStatusBar } from './auth/statusBar';
import type { CommandServices } from './commands/services';
import { registerDeferred } from './deferred';
import type { Features } from './features';
import { lazy } from './lazy';
import type { ExtensionServices } from './services';
import { PromptSeam, type Prompts } from './ui/prompts';
import type { ToolName } from './tools/toolIds';
import { registerWalkthrough, type WalkthroughApi } from './walkthrough';
import { createPendingStatusItem } from './watch/statusItem';
import { BUDGET } from './watch/schedule';
import { SharedBudget } from './watch/sharedBudget';
import { Watcher } from './watch/watcher';

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
 * Builds what the first frame needs (the connection, prompts, Accounts menu, status bar items,
 * the watcher of what is pending, the walkthrough) and registers stand-ins for the rest
 * (src/deferred.ts: commands, views, panels, links, chat), which require the features
 * (dist/features.js, src/features.ts) on their first use. No network call happens here: the
 * first call is made when a view asks for data or the person runs a command.
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
    () => features().promptSignIn(),
    (text) => void ui.message('info', text, {}),
  );
  base.accounts = accounts;
  // Reads what it follows from the global state; its first request waits until something is due.
  // Its request budget is one for every window of the profile, kept in the global storage folder.
  const watcher = step('watcher', () => {
    const shared = context.globalStorageUri.scheme === 'file' ? context.globalStorageUri.fsPath : undefined;
    const budget = shared ? new SharedBudget(shared, BUDGET, (m) => log.warn(m)) : undefined;
    return new Watcher({ state: context.globalState, connection, log, ui, budget });
  });
  const walkthrough = step('walkthrough', () => registerWalkthrough(base));
  // Set only by the test API below (which exists in test mode only).
  let restricted: boolean | undefined;
  const trusted = (): boolean => (restricted === undefined ? vscode.workspace.isTrusted : !restricted);

  // Everything else loads on first use, once: the stand-ins give way to the real commands.
  const features = lazy((): Features => {
    const t0 = performance.now();
    deferred.releaseCommands();
    // esbuild.mjs makes this dist/features.js, whose imports of our modules resolve to this bundle's.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { start } = require('./features') as typeof import('./features');
    const loaded = start({ base, watcher, views: deferred.views, openWalkthrough: walkthrough.open, trusted });
    context.subscriptions.push(loaded);
    log.debug(
      `Features loaded in ${(performance.now() - t0).toFixed(1)} ms (${Object.entries(loaded.profile)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ')})`,
    );
    return loaded;
  });
  const deferred = step('deferred', () => registerDeferred(features));
  context.subscriptions.push(
    log,
    connection,
    watcher,
    deferred,
    step('statusBar', () => createConnectionStatusBar(connection)),
    step('pendingStatusBar', () => createPendingStatusItem(watcher)),
    step('accounts', () => registerAuthProvider(accounts)),
    walkthrough.disposable,
  );
  // Offered once after an install (an extension under development or test is not installed;
  // tests call offerOnce themselves). Opening an editor is no network work.
  if (context.extensionMode === vscode.ExtensionMode.Production) void walkthrough.api.offerOnce();
  // Reads the settings and the stored token: after activate() returns, as the status bar's
  // first render does (the token read is asynchronous either way).
  setTimeout(() => void connection.refreshState(), 0);
  const total = Object.values(profile).reduce((a, b) => a + b, 0);
  log.debug(
    `Activated in ${total.toFixed(1)} ms (${Object.entries(profile)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')})`,
  );

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    // Tests reach the sidebar, panels and commands: asking for them loads the features.
    get services() {
      return features().services;
    },
    testing: {
      usePrompts: (p) => ui.use(p),
      activationProfile: profile,
      walkthrough: walkthrough.api,
      restrictedMode: (on) => (restricted = on),
      prepareTool: (name, input) => features().chatTools.prepare(name, input),
      answerTool: (name, input) => features().chatTools.answer(name, input),
    },
  };
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
