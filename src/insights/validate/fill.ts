/**
 * Fills the `{0}`, `{1}`… of a message `l10n.t` has already translated. The validator builds
 * its messages by the ten thousand on a large file, and @vscode/l10n's own formatting (a
 * regular-expression replace with a callback per placeholder) was a sixth of its time and a
 * seventh of what it allocated. The message stays a literal in `l10n.t(…)`, where the
 * translation export finds it. Placeholders without an argument stay as they are, as there. Pure.
 */
export function fill(template: string, ...args: (string | number)[]): string {
  let out = '';
  let from = 0;
  for (let open = template.indexOf('{'); open >= 0; open = template.indexOf('{', open + 1)) {
    const close = template.indexOf('}', open + 1);
    if (close < 0) break;
    if (close === open + 1) continue;
    const index = digitsAt(template, open + 1, close);
    // Like the pattern /{([^}]+)}/g: an unfilled "{…}" is passed over whole.
    if (index < 0 || index >= args.length) {
      open = close;
      continue;
    }
    out += template.slice(from, open) + String(args[index]);
    from = close + 1;
    open = close;
  }
  return from === 0 ? template : out + template.slice(from);
}

/** The array index written from `from` to `to` (decimal digits, no leading zero), else -1. */
function digitsAt(text: string, from: number, to: number): number {
  if (to - from > 1 && text.charCodeAt(from) === 0x30) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}
