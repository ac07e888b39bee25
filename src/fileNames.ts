/**
 * File names the extension proposes (downloads, saved views, reports, insight files), made
 * safe for every file system the editor runs on. Pure: no vscode, no I/O.
 *
 * - Lengths are counted in UTF-8 bytes, as file systems count them (ext4, APFS: 255 bytes): a
 *   name of 200 Japanese characters is 600 bytes, and cutting by UTF-16 units let it through.
 * - Windows reserves device names (CON, PRN, AUX, NUL, COM1-9, LPT1-9) with any extension:
 *   `nul.tif` opens the null device, not a file.
 */

/** The longest name (extension included) most file systems take, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;

/** Room kept for what is added to a name later: " (12)" when the name is taken. */
const SUFFIX_ROOM = 16;

/** Windows device names, alone or with any extension (`NUL.txt`, `com1.tar.gz`). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\.|$)/i;

/** Bidirectional controls make `invoice\u202Efdp.exe` display as `invoiceexe.pdf`. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** True when Windows would take `name` for a device. */
export function isWindowsDeviceName(name: string): boolean {
  return WINDOWS_DEVICE.test(name.trim());
}

/** UTF-8 length of `text`. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** `text` cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
export function clipBytes(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const n = utf8Bytes(ch);
    if (used + n > maxBytes) break;
    out += ch;
    used += n;
  }
  return out;
}

/**
 * `stem` + `ext` as a name every file system takes: path separators, control characters and
 * `<>:"|?*` replaced, bidirectional controls dropped, no leading dots, no trailing dots or
 * spaces (Windows drops them, changing the name), a device name prefixed with `_`, and the
 * stem shortened (by bytes, keeping the extension) so that the name stays under the limit
 * with room for a " (2)". Empty when nothing of `stem` is left.
 */
export function safeFileName(stem: string, ext = '', maxBytes = MAX_NAME_BYTES - SUFFIX_ROOM): string {
  const cleanExt = clean(ext).replace(/^([^.])/, '.$1');
  const room = Math.max(1, maxBytes - utf8Bytes(cleanExt));
  let base = clipBytes(
    clean(stem)
      .trim()
      .replace(/^[. ]+/, ''),
    room,
  )
    .trim()
    .replace(/[. ]+$/, '');
  if (base === '') return '';
  if (isWindowsDeviceName(base + cleanExt)) base = clipBytes(`_${base}`, room);
  return base + cleanExt;
}

/** A whole name (`report.tar.gz`) made safe the same way, its extension kept whole. */
export function safeName(name: string, maxBytes = MAX_NAME_BYTES - SUFFIX_ROOM): string {
  const ext = /(\.tar)?\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
  return safeFileName(name.slice(0, name.length - ext.length), ext, maxBytes);
}

function clean(s: string): string {
  return Array.from(s, (c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || '\\/<>:"|?*'.includes(c) ? '_' : c))
    .join('')
    .replace(BIDI_CONTROLS, '')
    .replace(/\s+/g, ' ');
}

/**
 * `path` ending in exactly one `suffix` (a compound one such as `.eosearch.json`). Save
 * dialogs add a filter's extension when the name does not end in it as they see it: VS Code's
 * own dialog compares only the last dot (`.json`), so a name typed or proposed as
 * `x.eosearch.json` came back as `x.eosearch.json.eosearch.json`. Every trailing run of the
 * suffix's parts (`.eosearch`, `.json`, in any order and number, any case) is replaced by the
 * suffix once; a path that would keep no name of its own before it gets `fallback`.
 */
export function withCompoundSuffix(path: string, suffix: string, fallback = 'untitled'): string {
  const parts = suffix
    .split('.')
    .filter((p) => p !== '')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const tail = new RegExp(`(\\.(?:${parts.join('|')}))+$`, 'i');
  const slash = path.lastIndexOf('/') + 1;
  const stem = path.slice(slash).replace(tail, '');
  return `${path.slice(0, slash)}${stem === '' ? fallback : stem}${suffix}`;
}
