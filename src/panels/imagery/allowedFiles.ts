/**
 * The files the extension itself put on the map, remembered in the extension's workspace
 * state so that a map revived after a window reload may read its saved layers again, and no
 * other file. The webview's saved state only proposes URLs; what is allowed is decided here.
 * One map per window: a new map starts a new list, a revived one continues it. Kept as SHA-256
 * digests (a URL can carry a signature in its query), the most recent `MAX_FILES`.
 */
import { createHash } from 'node:crypto';

/** Where the list lives: a `vscode.Memento` (the workspace state). */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const ALLOWED_FILES_KEY = 'eoImagery.map.imageryFiles';
export const MAX_FILES = 500;

const digest = (url: string): string => createHash('sha256').update(url).digest('hex');

export class AllowedFiles {
  private readonly digests: Set<string>;

  /** `continued`: a revived map, whose list carries on; otherwise the list starts empty. */
  constructor(
    private readonly store: StateStore,
    continued: boolean,
  ) {
    const saved: unknown = continued ? store.get(ALLOWED_FILES_KEY) : undefined;
    const valid = Array.isArray(saved) ? saved.filter((d): d is string => typeof d === 'string' && /^[0-9a-f]{64}$/.test(d)) : [];
    this.digests = new Set(valid.slice(-MAX_FILES));
    if (!continued) void this.store.update(ALLOWED_FILES_KEY, []);
  }

  has(url: string): boolean {
    return this.digests.has(digest(url));
  }

  add(urls: readonly string[]): void {
    let changed = false;
    for (const url of urls) {
      const d = digest(url);
      if (this.digests.has(d)) continue;
      this.digests.add(d);
      changed = true;
    }
    if (!changed) return;
    // a Set keeps insertion order: the oldest go first
    for (const d of this.digests) {
      if (this.digests.size <= MAX_FILES) break;
      this.digests.delete(d);
    }
    void this.store.update(ALLOWED_FILES_KEY, [...this.digests]);
  }
}
