/**
 * What a screen reader says for a tree row: the label and description as words, not as the
 * glyphs that fit a narrow row. Dates become "22 November 2026, 23:06", "km²" "square
 * kilometres", "·" a pause, "—" "unknown". Pure.
 */

import * as l10n from '@vscode/l10n';

const months = (): string[] => [
  l10n.t('January'),
  l10n.t('February'),
  l10n.t('March'),
  l10n.t('April'),
  l10n.t('May'),
  l10n.t('June'),
  l10n.t('July'),
  l10n.t('August'),
  l10n.t('September'),
  l10n.t('October'),
  l10n.t('November'),
  l10n.t('December'),
];

/** `2026-11-22`, `2026-11-22 23:06`, `2026-11-22T23:06:05Z` → words (the time as written). */
function spokenDate(_m: string, y: string, mo: string, d: string, time: string | undefined): string {
  const month = months()[Number(mo) - 1];
  if (!month) return _m;
  const day = l10n.t('{0} {1} {2}', Number(d), month, y);
  return time ? l10n.t('{0}, {1}', day, time.slice(0, 5)) : day;
}

export function spokenText(text: string): string {
  return text
    .replace(/\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?Z?)?\b/g, spokenDate)
    .replace(/(\d)\s*km²/g, (_m, n: string) => l10n.t('{0} square kilometres', n))
    .replace(/(\d)\s*m²/g, (_m, n: string) => l10n.t('{0} square metres', n))
    .replace(/\s*·\s*/g, ', ')
    .replace(/\s*—\s*/g, ` ${l10n.t('unknown')} `)
    .replace(/\s*…$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "Nile Delta fields, 64.9 square kilometres, Success". */
export function spokenRow(label: string, description?: string | boolean): string {
  const parts = [label, typeof description === 'string' ? description : ''].map(spokenText).filter(Boolean);
  return parts.join(', ');
}
