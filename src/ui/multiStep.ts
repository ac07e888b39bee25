/**
 * Multi-step input with back navigation that keeps every entry, built on the prompt seam so
 * integration tests drive it like any other prompt. A flow is a list of steps that read and
 * write one state object; going back re-asks the previous step with its earlier answer as
 * the default, and after the service refuses the request (4xx) the person picks the one entry
 * to fix (`editOne`) instead of starting over.
 */
import vscode = require('vscode');
import { inputStepVia, pickStepVia, type Prompts } from './prompts';
import { isBack, type StepBack } from './stepPrompts';

export type StepResult = 'next' | 'back' | 'cancel';

/** What a step uses to ask: numbered, titled, with Back when there is a step before it. */
export interface StepUi {
  pick<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: { placeHolder: string; activeLabel?: string; matchOnDescription?: boolean },
  ): Promise<T | StepBack | undefined>;
  input(options: {
    prompt: string;
    value?: string;
    placeHolder?: string;
    password?: boolean;
    validate?: (v: string) => string | undefined | Promise<string | undefined>;
  }): Promise<string | StepBack | undefined>;
  /** The prompts themselves, for anything else (messages, dialogs). */
  readonly prompts: Prompts;
}

export interface Step<S> {
  /** Short name of the entry, shown in the "fix one entry" list, e.g. "Project". */
  readonly name: string;
  /** The current answer, for the "fix one entry" list (never a secret). */
  describe?(state: S): string | undefined;
  /** Whether the step applies to this state (e.g. a path only when a store was chosen). */
  when?(state: S): boolean;
  ask(state: S, ui: StepUi): Promise<StepResult>;
}

/** Maps a prompt answer to the step outcome, writing it into the state when it is a value. */
export function outcome<V>(answer: V | StepBack | undefined, apply: (v: V) => void): StepResult {
  if (answer === undefined) return 'cancel';
  if (isBack(answer)) return 'back';
  apply(answer);
  return 'next';
}

export class MultiStepInput<S> {
  constructor(
    private readonly prompts: Prompts,
    private readonly title: string,
    private readonly steps: readonly Step<S>[],
    readonly state: S,
  ) {}

  /** Asks every applicable step in order; false when the person cancelled. */
  async run(): Promise<boolean> {
    let i = 0;
    const history: number[] = [];
    while (i < this.steps.length) {
      const step = this.steps[i];
      if (step.when && !step.when(this.state)) {
        i++;
        continue;
      }
      // Numbered as the person meets them: the steps answered, this one, and those ahead that
      // apply to the answers so far. A step that does not apply takes no number (counting it
      // made the counter jump, 5/12 to 7/12); an answer that brings one in (a recurrence, a
      // store's folder) adds it to the total from then on.
      const ahead = this.steps.slice(i + 1).filter((s) => !s.when || s.when(this.state)).length;
      const result = await step.ask(this.state, this.ui(history.length + 1, history.length + 1 + ahead, history.length > 0));
      if (result === 'cancel') return false;
      if (result === 'back') {
        const prev = history.pop();
        if (prev === undefined) return false;
        i = prev;
        continue;
      }
      history.push(i);
      i++;
    }
    return true;
  }

  /**
   * After the service refused the entries: the person picks the one to change, changes it,
   * and the caller submits again. Steps that become applicable after the change (a path once
   * a store is chosen) are asked too. False when the person cancelled.
   */
  async editOne(placeHolder = 'Which entry do you want to change?'): Promise<boolean> {
    for (;;) {
      const applicable = this.applicable();
      const items = applicable.map((s) => ({ label: s.name, description: s.describe?.(this.state) ?? '', step: s }));
      const chosen = await this.prompts.pick(items, { title: this.title, placeHolder, ignoreFocusOut: true });
      if (!chosen) return false;
      const result = await chosen.step.ask(this.state, this.ui(undefined, undefined, true));
      if (result === 'cancel') return false;
      if (result === 'back') continue;
      for (const s of this.applicable()) {
        if (applicable.includes(s)) continue;
        const r = await s.ask(this.state, this.ui(undefined, undefined, false));
        if (r !== 'next') return false;
      }
      return true;
    }
  }

  private applicable(): Step<S>[] {
    return this.steps.filter((s) => !s.when || s.when(this.state));
  }

  private ui(step: number | undefined, totalSteps: number | undefined, canGoBack: boolean): StepUi {
    const prompts = this.prompts;
    const title = this.title;
    return {
      prompts,
      pick: (items, o) =>
        Promise.resolve(
          pickStepVia(prompts, items, {
            title,
            step,
            totalSteps,
            canGoBack,
            ignoreFocusOut: true,
            placeHolder: o.placeHolder,
            activeLabel: o.activeLabel,
            matchOnDescription: o.matchOnDescription,
          }),
        ),
      input: (o) =>
        Promise.resolve(
          inputStepVia(prompts, {
            title,
            step,
            totalSteps,
            canGoBack,
            ignoreFocusOut: true,
            prompt: o.prompt,
            value: o.value,
            placeHolder: o.placeHolder,
            password: o.password,
            validateInput: o.validate,
          }),
        ),
    };
  }
}
