/**
 * The OpenAPI types several workflow fields (a workflow's and a job's `spec`, a task's
 * `inputs`, `result` and `info_logs`) as "raw bytes": an array of integers. A Go service
 * sends such a field as the JSON it holds (`json.RawMessage`), as base64 text (`[]byte`), or
 * as JSON text in a string; the schema's own reading is a list of byte values. This decodes
 * every one of them (docs/service-interface.md, "Workflows"). Pure.
 */

/** Text that a person can read: no replacement characters, no control characters but tabs and line breaks. */
function readable(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- the control characters are what is refused
  return !/[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(s);
}

function isByteList(v: unknown): v is number[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 255);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const t = text.trim();
  if (t === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(t) as unknown };
  } catch {
    return { ok: false };
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Base64 text that decodes to readable UTF-8, or undefined. */
function fromBase64(s: string): string | undefined {
  const t = s.trim();
  if (t.length < 4 || !BASE64.test(t)) return undefined;
  const text = Buffer.from(t, 'base64').toString('utf8');
  return readable(text) ? text : undefined;
}

export type RawForm = 'absent' | 'json' | 'jsonText' | 'base64' | 'bytes' | 'text';

export interface Decoded {
  /** The JSON value the field holds, or its text when the text is not JSON. */
  value: unknown;
  form: RawForm;
}

/**
 * What a raw-bytes field holds. A list of byte values or base64 text that decodes to JSON (or
 * readable text) is taken as bytes; a string that parses as JSON is JSON text; any other JSON
 * value is the value itself.
 */
export function decodeRaw(raw: unknown): Decoded {
  if (raw === undefined || raw === null || raw === '') return { value: undefined, form: 'absent' };
  if (isByteList(raw)) {
    const text = Buffer.from(raw).toString('utf8');
    if (readable(text)) {
      const j = parseJson(text);
      return j.ok ? { value: j.value, form: 'bytes' } : { value: text, form: 'bytes' };
    }
    return { value: raw, form: 'json' };
  }
  if (typeof raw === 'string') {
    const j = parseJson(raw);
    if (j.ok) return { value: j.value, form: 'jsonText' };
    const b = fromBase64(raw);
    if (b !== undefined) {
      const jb = parseJson(b);
      if (jb.ok) return { value: jb.value, form: 'base64' };
    }
    return { value: raw, form: 'text' };
  }
  return { value: raw, form: 'json' };
}

/**
 * A raw-bytes field meant as text (a task's `info_logs`): the text itself, decoded from bytes
 * or base64 when it came that way; JSON that is not a string is pretty-printed.
 */
export function decodeRawText(raw: unknown): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string') {
    const b = fromBase64(raw);
    // Plain words can be valid base64 too ("done"): only text with a line break or a space
    // after decoding, or JSON, counts as base64.
    if (b !== undefined && (/[\s{["]/.test(b) || parseJson(b).ok)) return b;
    return raw;
  }
  if (isByteList(raw)) {
    const text = Buffer.from(raw).toString('utf8');
    if (readable(text)) return text;
  }
  return JSON.stringify(raw, null, 2);
}
