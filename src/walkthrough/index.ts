import vscode = require('vscode');
import type { ExtensionServices } from '../services';
import { MANIFEST_STEP, stepOfRequest, type ObservedStep } from './progress';

/** `publisher.name#walkthroughId`, as `workbench.action.openWalkthrough` wants it. */
export const WALKTHROUGH_ID = 'eo-imagery.eo-imagery#eoImagery.gettingStarted';
const OFFERED_KEY = 'eoImagery.walkthroughOffered';

/** The context key a step's `onContext:` completion event waits for. */
export const stepContextKey = (step: ObservedStep): string => `eoImagery.walkthrough.${step}`;

/** What the walkthrough module shows tests: the steps seen done in this window. */
export interface WalkthroughApi {
  readonly done: ReadonlySet<ObservedStep>;
  /** Opens the walkthrough unless it was offered before; true when it opened it. */
  offerOnce(): Promise<boolean>;
  /** Forgets the steps seen in this window (tests start from a clean slate). */
  forget(): void;
}

/**
 * Waits before each try of `welcome.markStepComplete`: the workbench creates its walkthrough
 * service on first use and registers our steps a moment later (up to 5 s, while it asks its
 * experiment service), and until then the command fails with "unknown step".
 */
const MARK_RETRY_MS = [0, 250, 500, 1000, 2000, 4000, 8000];

/**
 * The "Get Started with EO Imagery" walkthrough: `open` (the Get Started command's handler,
 * registered by activate() with the other commands), and the steps that complete on what
 * happens over HTTP (see `stepOfRequest`) or when the connection is signed
 * in. Showing something on the map and creating an insight input complete through the
 * manifest's own command events.
 *
 * VS Code evaluates a step's `onContext:` event once when it registers the walkthrough, and an
 * event already true then is spent without ticking the step (gettingStartedService.ts,
 * `registerDoneListeners`). Its walkthrough service starts on first use, which without a
 * Welcome page at start-up is when the page is first opened: a connection made at start
 * (npm start, EO_API_TOKEN) was never shown as done. So each step is also ticked directly with
 * `welcome.markStepComplete`, which VS Code keeps in the profile.
 */
export function registerWalkthrough(services: ExtensionServices): { api: WalkthroughApi; open: () => Promise<void>; disposable: vscode.Disposable } {
  const { context, connection, log } = services;
  const done = new Set<ObservedStep>();
  let disposed = false;
  const tick = async (step: ObservedStep): Promise<void> => {
    const id = `${WALKTHROUGH_ID}#${MANIFEST_STEP[step]}`;
    let last: unknown;
    for (const ms of MARK_RETRY_MS) {
      if (ms) await new Promise((r) => setTimeout(r, ms));
      if (disposed) return;
      try {
        await vscode.commands.executeCommand('welcome.markStepComplete', id);
        return;
      } catch (err) {
        last = err;
      }
    }
    log.debug(`Walkthrough: could not mark ${id} done: ${last instanceof Error ? last.message : String(last)}`);
  };
  const mark = (step: ObservedStep): void => {
    if (done.has(step)) return;
    done.add(step);
    void vscode.commands.executeCommand('setContext', stepContextKey(step), true);
    void tick(step);
  };
  const open = async (): Promise<void> => {
    // VS Code's openWalkthrough does nothing while a Welcome page shows a walkthrough at one of
    // its steps (its own, on a first start): "Go Back" first takes that page to its list, where
    // ours can be chosen (the same as Escape there; a no-op in any other editor).
    await vscode.commands.executeCommand('welcome.goBack');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  };
  const api: WalkthroughApi = {
    done,
    forget: () => done.clear(),
    offerOnce: async () => {
      if (context.globalState.get<boolean>(OFFERED_KEY)) return false;
      // Marked first: a failure to open must not turn into an offer at every start.
      await context.globalState.update(OFFERED_KEY, true);
      // VS Code's own switch for opening walkthroughs after an install is honoured here too.
      if (!vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true)) return false;
      await open();
      return true;
    },
  };
  const disposable = vscode.Disposable.from(
    { dispose: () => (disposed = true) },
    connection.onDidRequest((e) => {
      const step = stepOfRequest(e);
      if (step) mark(step);
    }),
    connection.onDidChange(() => {
      if (connection.state !== 'signedOut') mark('signedIn');
    }),
  );
  return { api, open, disposable };
}
