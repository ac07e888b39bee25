/**
 * Names matched as people write them (case and accents ignored), and "did you mean" when one
 * matches nothing. The names come from the service, a model or a file, so neither their length
 * nor their number is ours to choose, and this runs in the extension host (in Restricted Mode
 * too): every step is bounded. A name is matched on at most its first NAME_CHARS characters;
 * the edit distance reads at most DISTANCE_CHARS of each side, gives up past its bound, and
 * runs over at most MAX_CANDIDATES names. One function for the chat tools and the insight
 * validator. Pure: no vscode, no I/O.
 */

/** The part of a name that is matched: a longer name matches by its id only. */
export const NAME_CHARS = 256;

/** The part of each side "did you mean" compares: enough to tell any typo a person makes. */
export const DISTANCE_CHARS = 48;

/** The largest edit distance computed; anything further is "far", in the list's order. */
export const MAX_DISTANCE = 8;

/** Names looked at for "did you mean", in the order they were listed (the tools read 1,000). */
export const MAX_CANDIDATES = 1000;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Lower case without accents or surrounding space. Reads the whole text: cut it first. */
export function fold(s: string): string {
  if (PRINTABLE_ASCII.test(s)) return s.toLowerCase().trim();
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** The matched part of a name, folded. */
export function nameKey(name: string): string {
  return fold(name.length > NAME_CHARS ? name.slice(0, NAME_CHARS) : name);
}

/** Tells whether a name is `wanted` as a person means it; a name past NAME_CHARS never is. */
export function nameMatcher(wanted: string): (name: string) => boolean {
  const w = wanted.length <= NAME_CHARS ? fold(wanted) : undefined;
  return (name) => w !== undefined && name.length <= NAME_CHARS && (name === wanted || fold(name) === w);
}

export interface CloseOptions {
  /** How many to answer. */
  n?: number;
  /** The largest distance kept; without it the `n` closest are answered however far. */
  max?: number;
  /** Names containing the wanted text (or contained in it) first, kept whatever their distance. */
  containing?: boolean;
}

interface Entry<T> {
  item: T;
  name: string;
  /** The part compared, folded. */
  near: string;
}

/** Names (each with what it names) prepared once, to ask "which are closest to …" many times. */
export class NameList<T> {
  private readonly entries: Entry<T>[] = [];

  constructor(items: readonly T[], names: (item: T) => readonly string[]) {
    const seen = new Set<string>();
    for (const item of items) {
      for (const name of names(item)) {
        if (this.entries.length >= MAX_CANDIDATES) return;
        const near = fold(name.slice(0, DISTANCE_CHARS));
        // names alike in the compared part are one suggestion
        if (seen.has(near)) continue;
        seen.add(near);
        this.entries.push({ item, name, near });
      }
    }
  }

  /** The closest names to `wanted`, closest first (then in the list's order). */
  closest(wanted: string, opts: CloseOptions = {}): { item: T; name: string; distance: number }[] {
    const n = opts.n ?? 3;
    const max = Math.min(opts.max ?? MAX_DISTANCE, MAX_DISTANCE);
    const w = fold(wanted.slice(0, DISTANCE_CHARS));
    // best[]: at most n, ordered by (not containing, distance); an entry beyond the last is skipped unmeasured
    const best: { entry: Entry<T>; rank: number; distance: number }[] = [];
    for (const entry of this.entries) {
      const contains = opts.containing === true && (entry.near.includes(w) || (w.length > 0 && w.includes(entry.near)));
      const rank = contains ? 0 : 1;
      const worst = best.length === n ? best[n - 1] : undefined;
      if (worst && worst.rank < rank) continue;
      // a distance that cannot beat the worst kept is not finished (it comes back as bound + 1)
      const bound = worst && worst.rank === rank ? Math.min(max, worst.distance - 1) : max;
      if (bound < 0) continue;
      const distance = distanceWithin(w, entry.near, bound);
      if (distance > max && !contains && opts.max !== undefined) continue;
      if (worst && worst.rank === rank && distance >= worst.distance) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1].rank > rank || (best[at - 1].rank === rank && best[at - 1].distance > distance))) at--;
      best.splice(at, 0, { entry, rank, distance });
      if (best.length > n) best.pop();
    }
    return best.map((b) => ({ item: b.entry.item, name: b.entry.name, distance: b.distance }));
  }
}

/** Up to `n` of `names` closest to `wanted`: names containing it first, then by edit distance. */
export function closestNames(wanted: string, names: readonly string[], n = 3): string[] {
  return new NameList(names, (x) => [x]).closest(wanted, { n, containing: true }).map((c) => c.name);
}

let row = new Int32Array(DISTANCE_CHARS + 1);

/**
 * Levenshtein distance of `a` and `b` when it is at most `max`, else `max + 1`. Only the band
 * of cells within `max` of the diagonal is computed, and a row whose every cell is past `max`
 * ends the search: at most (2 max + 1) cells a row.
 */
export function distanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const far = max + 1;
  if (row.length < b.length + 1) row = new Int32Array(b.length + 1);
  const d = row;
  for (let j = 0; j <= b.length; j++) d[j] = j <= max ? j : far;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    // d[from - 1]: the cell left of the band, column 0 while it is within reach, else past the bound
    let diagonal = d[from - 1];
    let left = from === 1 && i <= max ? i : far;
    d[from - 1] = left;
    let rowMin = left;
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const up = d[j];
      let cell = diagonal + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      if (up + 1 < cell) cell = up + 1;
      if (left + 1 < cell) cell = left + 1;
      if (cell > far) cell = far;
      d[j] = left = cell;
      diagonal = up;
      if (cell < rowMin) rowMin = cell;
    }
    // the cell right of the band is out of reach for the next row
    if (to < b.length) d[to + 1] = far;
    if (rowMin > max) return far;
  }
  return d[b.length] > max ? far : d[b.length];
}
