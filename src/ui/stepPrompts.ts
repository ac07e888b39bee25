/**
 * The two prompts of a multi-step input, with a Back button: the window's own, and what they
 * answer when Back was pressed. Used by the prompt seam (prompts.ts) and the flow runner
 * (multiStep.ts).
 */
import vscode = require('vscode');

/** What a step prompt returns when the person pressed Back. Structural, so it survives bundling. */
export interface StepBack {
  readonly back: true;
}

export const STEP_BACK: StepBack = Object.freeze({ back: true as const });

export function isBack(v: unknown): v is StepBack {
  return typeof v === 'object' && v !== null && (v as { back?: unknown }).back === true && !('label' in v);
}

export interface StepPosition {
  /** 1-based position shown as "2/5" in the title. */
  step?: number;
  totalSteps?: number;
  /** Show a Back button. */
  canGoBack: boolean;
}

export type PickStepOptions = vscode.QuickPickOptions & StepPosition & { activeLabel?: string };
export type InputStepOptions = vscode.InputBoxOptions &
  StepPosition & {
    /**
     * A check that needs time (e.g. the service), run when Enter is pressed: while it runs the
     * box is busy; a message keeps the box open with what was typed and the message in it.
     */
    accept?: (value: string) => Promise<string | undefined>;
  };

/** The window's quick pick with a Back button in its title bar (used by `windowPrompts`). */
export function windowPickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: PickStepOptions): Promise<T | StepBack | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<T>();
    qp.title = options.title;
    qp.placeholder = options.placeHolder;
    qp.step = options.step;
    qp.totalSteps = options.totalSteps;
    qp.ignoreFocusOut = options.ignoreFocusOut ?? true;
    qp.matchOnDescription = options.matchOnDescription ?? false;
    qp.matchOnDetail = options.matchOnDetail ?? false;
    qp.items = items;
    const active = items.find((i) => i.label === options.activeLabel);
    if (active) qp.activeItems = [active];
    if (options.canGoBack) qp.buttons = [vscode.QuickInputButtons.Back];
    let done = false;
    const finish = (v: T | StepBack | undefined): void => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(STEP_BACK);
    });
    qp.onDidAccept(() => finish(qp.selectedItems[0]));
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}

/** The window's input box with a Back button; validation runs as the person types. */
export function windowInputStep(options: InputStepOptions): Promise<string | StepBack | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.prompt = options.prompt;
    box.placeholder = options.placeHolder;
    box.value = options.value ?? '';
    box.password = options.password ?? false;
    box.step = options.step;
    box.totalSteps = options.totalSteps;
    box.ignoreFocusOut = options.ignoreFocusOut ?? true;
    if (options.canGoBack) box.buttons = [vscode.QuickInputButtons.Back];
    let done = false;
    const finish = (v: string | StepBack | undefined): void => {
      if (done) return;
      done = true;
      resolve(v);
      box.dispose();
    };
    const validate = async (value: string): Promise<string | undefined> => {
      const verdict = await options.validateInput?.(value);
      return typeof verdict === 'string' ? verdict || undefined : (verdict?.message ?? undefined);
    };
    box.onDidChangeValue(async (v) => {
      box.validationMessage = await validate(v);
    });
    box.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(STEP_BACK);
    });
    let checking = false;
    box.onDidAccept(async () => {
      if (checking) return;
      const value = box.value;
      let message = await validate(value);
      if (!message && options.accept) {
        checking = true;
        box.busy = true;
        box.enabled = false;
        try {
          message = await options.accept(value);
        } finally {
          checking = false;
          box.busy = false;
          box.enabled = true;
        }
      }
      box.validationMessage = message;
      if (!message) finish(value);
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

/** The label of the Back item a quick pick gets when the prompts have no `pickStep`. */
export const BACK_ITEM_LABEL = '$(arrow-left) Back';
