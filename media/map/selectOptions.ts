/**
 * The search panel's multi-select lists (collections, satellites, projects): what is chosen,
 * filling them while keeping the choice, and the line that says a list could not be read.
 */
import * as l10n from '@vscode/l10n';
import { clear, el } from '../shared/dom';

/** "Could not list …" for one of the search options the extension could not fetch. */
export function listError(what: string, why: string): string {
  switch (what) {
    case 'collections':
      return l10n.t('Could not list collections: {0}', why);
    case 'satellites':
      return l10n.t('Could not list satellites: {0}', why);
    case 'projects':
      return l10n.t('Could not list projects: {0}', why);
    default:
      return l10n.t('Could not list {0}: {1}', what, why);
  }
}

export function selected(s: HTMLSelectElement): string[] {
  return Array.from(s.selectedOptions).map((o) => o.value);
}

export function fill(s: HTMLSelectElement, opts: [string, string][], keep?: string[]): void {
  const prev = new Set(keep ?? selected(s));
  clear(s);
  for (const [value, text] of opts) {
    const o = el('option', { value }, text);
    o.selected = prev.has(value);
    s.appendChild(o);
  }
}
