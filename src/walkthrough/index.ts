import vscode = require('vscode');
import type { ExtensionServices } from '../services';
import { stepOfRequest, type ObservedStep } from './progress';

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
 * The "Get Started with EO Imagery" walkthrough: `open` (the Get Started command's handler,
 * registered by activate() with the others), and the steps that
 * complete on what happens over HTTP (see `stepOfRequest`). Signing in, showing something on
 * the map and creating an insight input complete through the manifest's own events.
 */
export function registerWalkthrough(services: ExtensionServices): { api: WalkthroughApi; open: () => Promise<void>; disposable: vscode.Disposable } {
  const { context, connection } = services;
  const done = new Set<ObservedStep>();
  const setStep = (step: ObservedStep, value: boolean): Thenable<unknown> => vscode.commands.executeCommand('setContext', stepContextKey(step), value);
  const mark = (step: ObservedStep): void => {
    if (done.has(step)) return;
    done.add(step);
    void setStep(step, true);
  };
  /**
   * VS Code ticks a step when its context key changes while the walkthrough page watches;
   * one that was already true when the page opened stays unticked. So once the page is up,
   * what is done is said again (false, then true); twice, for a slow window.
   */
  const reannounce = async (): Promise<void> => {
    const steps = [...done];
    for (const step of steps) await setStep(step, false);
    await new Promise((r) => setTimeout(r, 50));
    for (const step of steps) await setStep(step, true);
  };
  const open = async (): Promise<void> => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
    for (const ms of [1000, 4000]) setTimeout(() => void reannounce(), ms);
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
