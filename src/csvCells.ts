/**
 * CSV formula injection: a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (or a
 * tab or carriage return before one) as a formula, so a value the service echoes into a CSV
 * file (an order name, a tag, an AOI's name on a chart) could run `=HYPERLINK(…)` or worse when
 * the file is opened. Such cells are written as text: a leading `'`, the cell quoted. Numbers
 * (`-12.5`, `+3`) stay numbers.
 *
 * Where the list separator is `;` (most of continental Europe), a spreadsheet opens a `.csv`
 * splitting lines on `;`, not on `,`, and honours a quote only at the start of such a cell: an
 * unquoted `Lake;-2+3+cmd|…` holds the cell `-2+3+cmd|…`, and a line break inside a quoted
 * cell ends the row. So every part of a text after a `;` or a line break that begins like a
 * formula gets its `'` too (numbers included: there they are text). Every other byte of the
 * file is kept as sent. The one guard of the CSV files the extension writes. Pure.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** A `;`-separated part (or a line's) that begins like a formula, quotes before it allowed. */
const PART_FORMULA = /([;\r\n])("*[=+\-@\t])/g;

/** True when a spreadsheet would read `value` as a formula. */
export function isFormulaLike(value: string): boolean {
  return FORMULA_START.test(value) && !NUMBER.test(value.trim());
}

/** `value` as a cell no spreadsheet runs, whichever separator it splits lines on (unchanged when it is one). */
export function safeCell(value: string): string {
  const parts = value.replace(PART_FORMULA, "$1'$2");
  return isFormulaLike(parts) ? `'${parts}` : parts;
}

/** A text cell of a CSV file the extension writes: made safe, and quoted when it must be. */
export function csvText(value: string): string {
  const safe = safeCell(value);
  return /[",\n\r]/.test(safe) ? quoted(safe) : safe;
}

const quoted = (value: string): string => `"${value.replace(/"/g, '""')}"`;

/**
 * `text` (RFC 4180 CSV: fields separated by `,`, rows by CRLF or LF, quoted fields may hold
 * both) with every formula-like cell neutralised, and how many were.
 */
export function neutraliseCsv(text: string): { text: string; neutralised: number } {
  let out = '';
  let neutralised = 0;
  let i = 0;
  const n = text.length;
  while (i <= n) {
    // one field: [i, end), then the separator at `end` (or the end of the text)
    const start = i;
    let value: string;
    if (text.charCodeAt(i) === 0x22 /* " */) {
      let v = '';
      i++;
      while (i < n) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          v += text.slice(i);
          i = n;
          break;
        }
        v += text.slice(i, q);
        if (text.charCodeAt(q + 1) === 0x22) {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      // anything after the closing quote up to the separator belongs to the field (lenient)
      while (i < n && !isSeparator(text, i)) v += text[i++];
      value = v;
    } else {
      while (i < n && !isSeparator(text, i)) i++;
      value = text.slice(start, i);
    }
    const safe = safeCell(value);
    if (safe !== value) {
      out += quoted(safe);
      neutralised++;
    } else out += text.slice(start, i);
    if (i >= n) break;
    // the separator, as sent
    const sep = text.startsWith('\r\n', i) ? 2 : 1;
    out += text.slice(i, i + sep);
    i += sep;
    if (i === n) break;
  }
  return { text: out, neutralised };
}

function isSeparator(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 0x2c /* , */ || c === 0x0a /* \n */ || (c === 0x0d /* \r */ && text.charCodeAt(i + 1) === 0x0a);
}
