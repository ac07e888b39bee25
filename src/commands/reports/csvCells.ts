/**
 * CSV formula injection: a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (or a
 * tab or carriage return before one) as a formula, so a value the service echoes into the
 * order report (an order name, a tag) could run `=HYPERLINK(…)` or worse when the file is
 * opened. Such cells are written as text: a leading `'`, the cell quoted. Numbers (`-12.5`,
 * `+3`) stay numbers. Every other byte of the file is kept as sent. Pure.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** True when a spreadsheet would read `value` as a formula. */
export function isFormulaLike(value: string): boolean {
  return FORMULA_START.test(value) && !NUMBER.test(value.trim());
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
    if (isFormulaLike(value)) {
      out += quoted(`'${value}`);
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
