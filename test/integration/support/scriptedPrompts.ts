import type * as vscode from 'vscode';
import type { Prompts } from '../../../src/ui/prompts';

/**
 * A Prompts implementation that answers from a script, for integration tests. Each quick
 * pick, input box and modal message must be expected by the next step, in order; anything
 * else fails the test (the prompt rejects and the failure is kept for `assertDone()`).
 * Non-modal messages never block a person, so they are recorded, not scripted.
 */
export type Step =
  | { kind: 'pick'; match?: string | RegExp; choose: string | ((items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined) }
  | { kind: 'pickMany'; match?: string | RegExp; choose: string[] | ((items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem[]) }
  /**
   * `rejects`: the box must refuse `answer` with that message; the person then presses Escape.
   * `before`: runs before the answer is given (e.g. the world changes while the box is open).
   */
  | { kind: 'input'; match?: string | RegExp; answer: string | undefined; rejects?: RegExp; before?: () => Promise<unknown> }
  | { kind: 'message'; match?: string | RegExp; answer: string | undefined }
  | { kind: 'openDialog'; match?: string | RegExp; answer: vscode.Uri[] | undefined; before?: () => Promise<unknown> }
  /** `answer` is the chosen file, or a function of the dialog's suggested file. */
  | { kind: 'saveDialog'; match?: string | RegExp; answer: vscode.Uri | undefined | ((suggested: vscode.Uri | undefined) => vscode.Uri | undefined) }
  | { kind: 'cancel'; match?: string | RegExp };

export interface ShownMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
  modal: boolean;
  buttons: string[];
  /** The modal's second paragraph (`options.detail`), when it has one. */
  detail?: string;
}

export class ScriptedPrompts implements Prompts {
  readonly messages: ShownMessage[] = [];
  readonly failures: string[] = [];
  /** What each answered prompt showed (titles, items; an input box's initial value and the validation message it opened with), for assertions. */
  readonly seen: { kind: string; label: string; items?: string[]; rows?: readonly vscode.QuickPickItem[]; value?: string; message?: string }[] = [];
  private readonly steps: Step[];

  constructor(steps: Step[] = []) {
    this.steps = [...steps];
  }

  push(...steps: Step[]): void {
    this.steps.push(...steps);
  }

  /** Throws when a prompt was unexpected or a scripted step was never reached. */
  assertDone(): void {
    const problems = [...this.failures];
    if (this.steps.length) problems.push(`${this.steps.length} scripted prompt(s) never shown: ${this.steps.map(describeStep).join('; ')}`);
    if (problems.length) throw new Error(problems.join('\n'));
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions): Promise<T | undefined> {
    const label = [options.title, options.placeHolder].filter(Boolean).join(' | ');
    const list = await items;
    const step = this.next('pick', label, list);
    if (step.kind === 'cancel') return undefined;
    if (step.kind !== 'pick') throw this.fail(`expected ${step.kind}, got a quick pick "${label}"`);
    const chosen =
      typeof step.choose === 'string'
        ? list.find((i) => i.label === step.choose || stripIcons(i.label) === step.choose || i.label.includes(step.choose as string))
        : (step.choose(list) as T | undefined);
    if (!chosen) throw this.fail(`quick pick "${label}" has no item ${String(step.choose)}; items: ${list.map((i) => i.label).join(', ')}`);
    return chosen as T;
  }

  async pickMany<T extends vscode.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options: vscode.QuickPickOptions,
  ): Promise<readonly T[] | undefined> {
    const label = [options.title, options.placeHolder].filter(Boolean).join(' | ');
    const list = await items;
    const step = this.next('pickMany', label, list);
    if (step.kind === 'cancel') return undefined;
    if (step.kind !== 'pickMany') throw this.fail(`expected ${step.kind}, got a multi-select quick pick "${label}"`);
    const chosen = Array.isArray(step.choose)
      ? list.filter((i) => (step.choose as string[]).some((c) => i.label === c || stripIcons(i.label) === c))
      : (step.choose(list) as T[]);
    return chosen;
  }

  async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    const label = [options.title, options.prompt, options.placeHolder].filter(Boolean).join(' | ');
    const step = this.next('input', label);
    const shown = this.seen[this.seen.length - 1];
    shown.value = options.value;
    if (options.value !== undefined && options.validateInput) {
      const first = await options.validateInput(options.value);
      shown.message = (typeof first === 'string' ? first : first?.message) || undefined;
    }
    if (step.kind === 'cancel') return undefined;
    if (step.kind !== 'input') throw this.fail(`expected ${step.kind}, got an input box "${label}"`);
    await step.before?.();
    if (step.answer !== undefined && options.validateInput) {
      const verdict = await options.validateInput(step.answer);
      const text = typeof verdict === 'string' ? verdict : verdict?.message;
      if (step.rejects) {
        if (text && step.rejects.test(text)) return undefined;
        throw this.fail(`input "${label}" should have refused "${step.answer}" with ${String(step.rejects)}, said ${text ? `"${text}"` : 'nothing'}`);
      }
      if (text) throw this.fail(`input "${label}" rejected the scripted answer: ${text}`);
    }
    return step.answer;
  }

  async message(severity: 'info' | 'warning' | 'error', text: string, options: vscode.MessageOptions, ...buttons: string[]): Promise<string | undefined> {
    const modal = options.modal === true;
    this.messages.push({ severity, text, modal, buttons, detail: options.detail });
    const head = this.steps[0];
    // Non-modal messages are scripted only when a test wants to click one of their buttons.
    if (!modal && !(head?.kind === 'message' && matches(head.match, text))) return undefined;
    const step = this.next('message', text);
    if (step.kind === 'cancel') return undefined;
    if (step.kind !== 'message') throw this.fail(`expected ${step.kind}, got a modal message "${text}"`);
    if (step.answer !== undefined && !buttons.includes(step.answer)) {
      throw this.fail(`message "${text}" has no button "${step.answer}"; buttons: ${buttons.join(', ')}`);
    }
    return step.answer;
  }

  async openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    const label = options.title ?? options.openLabel ?? 'open dialog';
    const step = this.next('openDialog', label);
    if (step.kind === 'cancel') return undefined;
    if (step.kind !== 'openDialog') throw this.fail(`expected ${step.kind}, got an open dialog "${label}"`);
    await step.before?.();
    return step.answer;
  }

  /** What the last save dialog suggested (its `defaultUri`), for assertions. */
  suggestedSave: vscode.Uri | undefined;

  async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    const label = options.title ?? options.saveLabel ?? 'save dialog';
    const step = this.next('saveDialog', label);
    if (step.kind === 'cancel') return undefined;
    if (step.kind !== 'saveDialog') throw this.fail(`expected ${step.kind}, got a save dialog "${label}"`);
    this.suggestedSave = options.defaultUri;
    return typeof step.answer === 'function' ? step.answer(options.defaultUri) : step.answer;
  }

  /** The next scripted step, once what the prompt shows is noted in `seen` (a quick pick's rows whole, and their labels). */
  private next(kind: Step['kind'], label: string, rows?: readonly vscode.QuickPickItem[]): Step {
    this.seen.push({ kind, label, items: rows?.map((i) => i.label), rows });
    const step = this.steps.shift();
    if (!step) throw this.fail(`unexpected ${kind} "${label}"`);
    if (!matches(step.match, label)) throw this.fail(`expected a ${step.kind} matching ${String(step.match)}, got ${kind} "${label}"`);
    return step;
  }

  private fail(text: string): Error {
    const message = `ScriptedPrompts: ${text}`;
    this.failures.push(message);
    return new Error(message);
  }
}

function matches(match: string | RegExp | undefined, label: string): boolean {
  if (match === undefined) return true;
  return typeof match === 'string' ? label.includes(match) : match.test(label);
}

function stripIcons(label: string): string {
  return label.replace(/\$\([a-z0-9-]+\)\s*/g, '').trim();
}

function describeStep(step: Step): string {
  return `${step.kind}${step.match ? ` ${String(step.match)}` : ''}`;
}
