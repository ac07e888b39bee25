/**
 * jsonc-parser's `modify` for an edit inside the `input` array, without parsing the whole file.
 * `modify` parses the text it is given, then formats the lines it changed; a quick fix on a
 * 1 MB file spent most of a second in that parse. The edit depends only on the entry it touches,
 * its neighbours and the lines around them, so `modify` runs on a copy of the text with the
 * entries far from the edited one cut out, and its edit is shifted back. Pure.
 */
import type { JSONPath, ModificationOptions } from 'jsonc-parser';
import { jsonc } from '../jsonc';
import type { TextEdit } from './types';

/** Where the `input` array's entries are: [start, end) offsets, two numbers per entry. */
export type EntrySpans = Int32Array;

/** Entries kept on each side of the edited one: the edit and its formatting reach one. */
const KEEP = 2;

const isLineBreak = (c: number): boolean => c === 0x0a || c === 0x0d;

function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isLineBreak(text.charCodeAt(i))) return true;
  return false;
}

/**
 * The same edits as `jsonc.modify(text, path, value, options)`. For a path into the `input`
 * array (`['input', i, ...]`) whose entries' spans are known, `modify` sees only the entries
 * `i - KEEP` to `i + KEEP` (and the text before the first entry and after the last): the
 * entries before are cut from the first entry's start, those after from the kept entries' end
 * to the last entry's end, so the text stays one valid array. A cut is made only where a line
 * break lies between it and the lines the edit can touch (the edited entry, the end of the
 * entry before it, the start of the entry after it): formatting reads only the lines it
 * changes, so those stay byte for byte as they were. Otherwise the whole text is used.
 */
export function modifyInput(text: string, spans: EntrySpans | undefined, path: JSONPath, value: unknown, options: ModificationOptions): TextEdit[] {
  const index = path[1];
  const n = spans ? spans.length / 2 : 0;
  if (!spans || path[0] !== 'input' || typeof index !== 'number' || index < 0 || index > n || n === 0) {
    return jsonc().modify(text, path, value, options);
  }
  const start = (i: number): number => spans[2 * i];
  const end = (i: number): number => spans[2 * i + 1];
  // Cut the entries before `lo`: from the first entry's start to entry `lo`'s start.
  let lo = Math.max(0, index - KEEP);
  if (lo > 0 && !hasLineBreak(text, start(lo), end(index - 1))) lo = 0;
  // Cut the entries after `hi`: from entry `hi`'s end to the last entry's end.
  let hi = Math.min(n - 1, index + KEEP);
  if (hi < n - 1 && !hasLineBreak(text, start(index + 1), end(hi))) hi = n - 1;
  if (lo === 0 && hi === n - 1) return jsonc().modify(text, path, value, options);

  const cut1 = [start(0), start(lo)];
  const cut2 = [end(hi), end(n - 1)];
  const local = text.slice(0, cut1[0]) + text.slice(cut1[1], cut2[0]) + text.slice(cut2[1]);
  const shift = cut1[1] - cut1[0];
  // The part of `local` that is the kept entries (and what lies between them).
  const keptFrom = lo > 0 ? cut1[0] : 0;
  const keptTo = hi < n - 1 ? cut2[0] - shift : local.length;
  const edits = jsonc().modify(local, ['input', index - lo, ...path.slice(2)], value, options);
  if (edits.some((e) => e.offset < keptFrom || e.offset + e.length > keptTo)) return jsonc().modify(text, path, value, options);
  return edits.map((e) => ({ offset: e.offset >= cut1[0] ? e.offset + shift : e.offset, length: e.length, content: e.content }));
}
