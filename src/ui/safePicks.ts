/**
 * A quick pick's rows as safe text: the quick pick renders `$(icon)` in a row's label,
 * description and detail and in its title, and rows often carry a service's names. Every row
 * passes through here on its way to the window (`PromptSeam`), whoever built it, so a store
 * named `$(check) Verified` shows those words, not an icon. Our own icons go in `iconPath`.
 * The caller gets back the very item it passed (its extra fields, its identity).
 */
import type * as vscode from 'vscode';
import { safeText } from '../safeText';

export interface SafePicks<T> {
  /** What the window shows: copies with their text made safe. */
  readonly shown: T[];
  /** The caller's item for a shown one. */
  original(shown: T): T;
}

export function safePicks<T extends vscode.QuickPickItem>(items: readonly T[]): SafePicks<T> {
  const originals = new Map<T, T>();
  const shown = items.map((item) => {
    const safe: T = {
      ...item,
      label: safeText(item.label, 'pick'),
      ...(item.description !== undefined ? { description: safeText(item.description, 'pick') } : {}),
      ...(item.detail !== undefined ? { detail: safeText(item.detail, 'pick') } : {}),
    };
    originals.set(safe, item);
    return safe;
  });
  return { shown, original: (s) => originals.get(s) ?? s };
}

/** A quick pick's title and placeholder as safe text (the title renders icons; both often name a record). */
export function safePickOptions<O extends { title?: string; placeHolder?: string }>(options: O): O {
  return {
    ...options,
    ...(options.title !== undefined ? { title: safeText(options.title, 'pick') } : {}),
    ...(options.placeHolder !== undefined ? { placeHolder: safeText(options.placeHolder, 'pick') } : {}),
  };
}
