/**
 * The one function that turns text from outside (the service, a shared link or view file, a
 * workspace file, a model) into text that is safe where it is shown. Pure: no vscode.
 *
 * Why each sink needs its own form (checked against code-server 4.100.3's workbench):
 * - Notifications, progress notifications and the quick input's prompt and validation message
 *   parse `[label](command:id?args)` (also `https://`, `file:`) into a link that runs the
 *   command on a click (vs/base/common/linkedText.ts, `parseLinkedText`), and the quick input and
 *   the status bar render `$(icon)`. That parser knows no backslash escape, so a backslash would
 *   stay visible: the form here puts a space between `]` and `(`, and between `$` and `(`, which
 *   a person reads as the same text and no parser reads as a link or an icon.
 * - A quick pick's rows (label, description, detail) and its title, and a CodeLens title, render
 *   `$(icon)` but parse no links: the `pick` form puts the same space between `$` and `(`. Our
 *   own icons in rows go in `iconPath`, never in the text.
 * - Markdown (tooltips, chat) is escaped the CommonMark way: every ASCII punctuation character
 *   gets a backslash, which the renderer removes, so nothing becomes emphasis, a heading, HTML,
 *   a link or an autolink.
 * Every sink drops bidirectional and zero-width format characters (they hide what text says)
 * and control characters, and cuts the text to a bound; the one-line sinks turn line breaks
 * into spaces, so a value cannot start a line of its own.
 */

/**
 * - `notification`: the whole text of a notification, a progress title or message, a quick
 *   input's prompt or validation message, a modal's message (one line);
 * - `line`: one value inside plain text of ours (a tooltip line, a modal's detail, a name
 *   inside a longer sentence), one line;
 * - `lines`: plain text whose line breaks are ours (a modal's detail), bounded by cutting its
 *   middle: the end of a priced confirmation is its total;
 * - `markdown`: text inside a MarkdownString or a chat answer, one line;
 * - `pick`: a quick pick row's label, description or detail, a quick pick's title, a value
 *   inside a CodeLens title (one line, no icon).
 */
export type TextSink = 'notification' | 'line' | 'lines' | 'markdown' | 'pick';

/** The longest text each sink keeps (VS Code itself cuts a notification at 1,000). */
export const TEXT_LIMITS: { readonly [S in TextSink]: number } = { notification: 800, line: 200, lines: 4000, markdown: 1000, pick: 300 };

// Bidirectional overrides and isolates, zero-width spaces and joiners, the word joiner and
// invisible operators, the byte-order mark, soft hyphen, and the C0/C1 controls but tab and
// line breaks (which the sinks treat below).
// eslint-disable-next-line no-control-regex -- the control characters are what is dropped
const HIDDEN = /[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const BREAKS = /[\t\r\n\u0085\u2028\u2029]+/g;
const MARKDOWN_SPECIAL = /[!-/:-@[-`{-~]/g;

/** `value` as safe text for `sink`, cut to `max` characters (with "…"). */
export function safeText(value: unknown, sink: TextSink, max: number = TEXT_LIMITS[sink]): string {
  const raw = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  // Bounded before any pattern runs: a 10 MB name costs no more than a short one.
  let text = raw.length > max * 4 + 64 ? raw.slice(0, max * 4 + 64) : raw;
  text = text.replace(HIDDEN, '');
  if (sink === 'lines') {
    text = text
      .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
      .replace(/\t/g, ' ')
      .replace(/\n{3,}/g, '\n\n');
  } else text = text.replace(BREAKS, ' ').replace(/ {2,}/g, ' ').trim();
  if (sink === 'notification' || sink === 'markdown') text = unlinked(text);
  else if (sink === 'pick') text = iconless(text);
  // Cut last: dropping a part and adding "…" cannot join a `]` and a `(`.
  text = sink === 'lines' ? cutMiddle(text, max) : cut(text, max);
  // The backslashes are the renderer's, not the person's: the bound is on what is shown.
  return sink === 'markdown' ? text.replace(MARKDOWN_SPECIAL, (c) => `\\${c}`) : text;
}

/** No `](` and no `$(`: nothing for the link parser or the icon renderer to take. */
function unlinked(text: string): string {
  return iconless(text.replace(/\](?=\()/g, '] '));
}

/** No `$(`: nothing for the icon renderer to take. */
function iconless(text: string): string {
  return text.replace(/\$(?=\()/g, '$ ');
}

/** The first two thirds and the last third, with a line "…" between. */
function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor((max - 3) / 3);
  return `${head(text, max - 3 - tail)}\n…\n${text.slice(pairStart(text, text.length - tail))}`;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${head(text, max - 1).trimEnd()}…`;
}

/** At most `n` characters from the start, never half of a surrogate pair. */
function head(text: string, n: number): string {
  const end = Math.max(0, n);
  return text.slice(0, end > 0 && /[\ud800-\udbff]/.test(text[end - 1]) ? end - 1 : end);
}

/** `i`, or the next index when `i` is the second half of a surrogate pair. */
function pairStart(text: string, i: number): number {
  return /[\udc00-\udfff]/.test(text[i] ?? '') ? i + 1 : i;
}
