/**
 * What a screen reader says for a tree row: the label and description as words, not as the
 * glyphs that fit a narrow row. Dates become "22 November 2026, 23:06", "km²" "square
 * kilometres", "·" a pause, "—" "unknown". Pure.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-11-22`, `2026-11-22 23:06`, `2026-11-22T23:06:05Z` → words (the time as written). */
function spokenDate(_m: string, y: string, mo: string, d: string, time: string | undefined): string {
  const month = MONTHS[Number(mo) - 1];
  if (!month) return _m;
  const day = `${Number(d)} ${month} ${y}`;
  return time ? `${day}, ${time.slice(0, 5)}` : day;
}

export function spokenText(text: string): string {
  return text
    .replace(/\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?Z?)?\b/g, spokenDate)
    .replace(/(\d)\s*km²/g, '$1 square kilometres')
    .replace(/(\d)\s*m²/g, '$1 square metres')
    .replace(/\s*·\s*/g, ', ')
    .replace(/\s*—\s*/g, ' unknown ')
    .replace(/\s*…$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "Nile Delta fields, 64.9 square kilometres, Success". */
export function spokenRow(label: string, description?: string | boolean): string {
  const parts = [label, typeof description === 'string' ? description : ''].map(spokenText).filter(Boolean);
  return parts.join(', ');
}
