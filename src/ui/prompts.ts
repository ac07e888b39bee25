import vscode = require('vscode');
import { safeText } from '../safeText';
import { safePickOptions, safePicks } from './safePicks';
import { BACK_ITEM_LABEL, STEP_BACK, windowInputStep, windowPickStep, type InputStepOptions, type PickStepOptions, type StepBack } from './stepPrompts';

/**
 * The prompt seam. Commands ask the person through this interface, never through
 * `vscode.window` directly, so that integration tests can answer in script and fail on any
 * prompt they did not expect (see `ScriptedPrompts`). What it shows in a notification or an
 * input box's message goes through `safeText` here (`PromptSeam`), whoever wrote it: a
 * sentence with a service's name in it can never become a link that runs a command.
 */
export interface Prompts {
  pick<T extends vscode.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options: vscode.QuickPickOptions & { canPickMany?: false },
  ): Thenable<T | undefined>;
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions): Thenable<readonly T[] | undefined>;
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /** A modal or non-modal message with buttons; resolves to the chosen button's title. */
  message(severity: 'info' | 'warning' | 'error', text: string, options: vscode.MessageOptions, ...buttons: string[]): Thenable<string | undefined>;
  openDialog(options: vscode.OpenDialogOptions): Thenable<vscode.Uri[] | undefined>;
  /** Optional so that older test scripts compile; a script without it refuses the dialog. */
  saveDialog?(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  /**
   * A step of a multi-step input (src/ui/stepPrompts.ts): a quick pick or input box with a Back
   * button. Optional: without it, `pickStepVia`/`inputStepVia` fall back to `pick` (with a
   * "Back" item) and `input`.
   */
  pickStep?<T extends vscode.QuickPickItem>(items: readonly T[], options: PickStepOptions): Thenable<T | StepBack | undefined>;
  inputStep?(options: InputStepOptions): Thenable<string | StepBack | undefined>;
}

export const windowPrompts: Prompts = {
  pick: (items, options) => vscode.window.showQuickPick(items, options),
  pickMany: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: true }),
  input: (options) => vscode.window.showInputBox(options),
  // Already safe from the seam; made safe again (it changes nothing then) for any other caller.
  message: (severity, text, options, ...buttons) =>
    severity === 'error'
      ? vscode.window.showErrorMessage(safeText(text, 'notification'), options, ...buttons)
      : severity === 'warning'
        ? vscode.window.showWarningMessage(safeText(text, 'notification'), options, ...buttons)
        : vscode.window.showInformationMessage(safeText(text, 'notification'), options, ...buttons),
  openDialog: (options) => vscode.window.showOpenDialog(options),
  saveDialog: (options) => vscode.window.showSaveDialog(options),
  pickStep: (items, options) => windowPickStep(items, options),
  inputStep: (options) => windowInputStep(options),
};

/** Delegates to the window, or to whatever a test installs with `use()`. */
export class PromptSeam implements Prompts {
  private target: Prompts = windowPrompts;

  /** Installs `prompts` (a test's script); returns a function that restores the window. */
  use(prompts: Prompts): () => void {
    this.target = prompts;
    return () => {
      this.target = windowPrompts;
    };
  }

  pick<T extends vscode.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options: vscode.QuickPickOptions & { canPickMany?: false },
  ): Thenable<T | undefined> {
    const safe = Promise.resolve(items).then(safePicks);
    return this.target
      .pick(
        safe.then((s) => s.shown),
        safePickOptions(options),
      )
      .then(async (chosen) => (chosen === undefined ? undefined : (await safe).original(chosen)));
  }

  pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions): Thenable<readonly T[] | undefined> {
    const safe = Promise.resolve(items).then(safePicks);
    return this.target
      .pickMany(
        safe.then((s) => s.shown),
        safePickOptions(options),
      )
      .then(async (chosen) => {
        const { original } = await safe;
        return chosen?.map(original);
      });
  }

  input(options: vscode.InputBoxOptions): Thenable<string | undefined> {
    return this.target.input(safeInput(options));
  }

  message(severity: 'info' | 'warning' | 'error', text: string, options: vscode.MessageOptions, ...buttons: string[]): Thenable<string | undefined> {
    const detail = options.detail === undefined ? {} : { detail: safeText(options.detail, 'lines') };
    return this.target.message(severity, safeText(text, 'notification'), { ...options, ...detail }, ...buttons);
  }

  openDialog(options: vscode.OpenDialogOptions): Thenable<vscode.Uri[] | undefined> {
    return this.target.openDialog(options);
  }

  saveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined> {
    if (!this.target.saveDialog) return Promise.reject(new Error('the installed prompts do not answer save dialogs'));
    return this.target.saveDialog(options);
  }

  async pickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: PickStepOptions): Promise<T | StepBack | undefined> {
    const safe = safePicks(items);
    const active = items.find((i) => i.label === options.activeLabel);
    const chosen = await pickStepVia(this.target, safe.shown, {
      ...safePickOptions(options),
      ...(active ? { activeLabel: safe.shown[items.indexOf(active)].label } : {}),
    });
    return chosen === undefined || chosen === STEP_BACK ? chosen : safe.original(chosen as T);
  }

  inputStep(options: InputStepOptions): Thenable<string | StepBack | undefined> {
    const { accept } = options;
    return inputStepVia(this.target, {
      ...safeInput(options),
      ...(accept ? { accept: async (v: string) => safeMessage(await accept(v)) } : {}),
    });
  }
}

/**
 * An input box's prompt and validation messages as safe text: the quick input parses links
 * in both, and a refusal often quotes what the service said; its title, which often names a
 * record, as a quick pick's (no icon).
 */
function safeInput<O extends vscode.InputBoxOptions>(options: O): O {
  const { validateInput } = options;
  return {
    ...options,
    ...(options.prompt !== undefined ? { prompt: safeText(options.prompt, 'notification') } : {}),
    ...(options.title !== undefined ? { title: safeText(options.title, 'pick') } : {}),
    ...(validateInput ? { validateInput: async (v: string) => safeMessage(await validateInput(v)) } : {}),
  };
}

function safeMessage<M extends string | vscode.InputBoxValidationMessage | null | undefined>(m: M): M {
  if (typeof m === 'string') return safeText(m, 'notification') as M;
  if (m && typeof m === 'object') return { ...m, message: safeText(m.message, 'notification') };
  return m;
}

/** A step quick pick through any Prompts: its own `pickStep`, or `pick` with a Back item. */
export async function pickStepVia<T extends vscode.QuickPickItem>(
  prompts: Prompts,
  items: readonly T[],
  options: PickStepOptions,
): Promise<T | StepBack | undefined> {
  if (prompts.pickStep) return prompts.pickStep(items, options);
  const { step, totalSteps, canGoBack, activeLabel, ...rest } = options;
  void activeLabel;
  const title = step && totalSteps ? `${rest.title ?? ''} (${step}/${totalSteps})`.trim() : rest.title;
  const back = { label: BACK_ITEM_LABEL, alwaysShow: true } as vscode.QuickPickItem;
  const list: vscode.QuickPickItem[] = canGoBack ? [...items, back] : [...items];
  const chosen = await prompts.pick(list, { ...rest, title, canPickMany: false });
  if (chosen === back) return STEP_BACK;
  return chosen as T | undefined;
}

/**
 * A step input box through any Prompts: its own `inputStep`, or plain `input` (no Back). With
 * plain `input`, an `accept` check that refuses reopens the box with what was typed and the
 * refusal as its validation message.
 */
export async function inputStepVia(prompts: Prompts, options: InputStepOptions): Promise<string | StepBack | undefined> {
  if (prompts.inputStep) return prompts.inputStep(options);
  const { step, totalSteps, canGoBack, accept, ...rest } = options;
  void canGoBack;
  const title = step && totalSteps ? `${rest.title ?? ''} (${step}/${totalSteps})`.trim() : rest.title;
  if (!accept) return prompts.input({ ...rest, title });
  let value = rest.value;
  let refused: { value: string; message: string } | undefined;
  for (;;) {
    const last = refused;
    const answer = await prompts.input({
      ...rest,
      title,
      value,
      validateInput: (v) => (last && v === last.value ? last.message : rest.validateInput?.(v)),
    });
    if (answer === undefined) return undefined;
    const message = await accept(answer);
    if (!message) return answer;
    value = answer;
    refused = { value: answer, message };
  }
}
