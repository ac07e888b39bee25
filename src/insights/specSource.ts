/**
 * Block specs for the validator, fetched through the client and cached per block name (one
 * `/v0/blocks/insights?name=` answer lists every version). No vscode here: the connection is
 * reached through `getClient`, which throws when signed out.
 */
import type { Block, EoClient } from '../api';
import { ApiError, needsSignIn } from '../api';
import type { SpecLookup } from './validate/types';
import { closestNames, distanceWithin, fold } from '../nameMatch';

const TTL_MS = 5 * 60_000;

export type ClientGetter = () => Promise<EoClient>;

/** Versions newest first, by numeric parts where they are numbers. */
export function sortVersions(versions: readonly string[]): string[] {
  const parts = (v: string): (number | string)[] => v.split(/[.\-+]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return [...versions].sort((a, b) => {
    const pa = parts(a);
    const pb = parts(b);
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const x = pa[i] ?? -1;
      const y = pb[i] ?? -1;
      if (x === y) continue;
      if (typeof x === 'number' && typeof y === 'number') return y - x;
      return String(y).localeCompare(String(x));
    }
    return 0;
  });
}

export class SpecSource {
  private readonly byName = new Map<string, { at: number; blocks: Promise<Block[]> }>();

  constructor(
    private readonly getClient: ClientGetter,
    private readonly now: () => number = Date.now,
  ) {}

  /** Drops every cached answer (sign-in, sign-out, another service). */
  clear(): void {
    this.byName.clear();
  }

  private blocks(name: string): Promise<Block[]> {
    const hit = this.byName.get(name);
    if (hit && this.now() - hit.at < TTL_MS) return hit.blocks;
    const blocks = this.getClient().then((c) => c.blocks.insights(name ? { name } : {}));
    this.byName.set(name, { at: this.now(), blocks });
    // Failures are not cached: the next keystroke tries again.
    blocks.catch(() => {
      if (this.byName.get(name)?.blocks === blocks) this.byName.delete(name);
    });
    return blocks;
  }

  /**
   * The service's block names a typo of `name` may have meant: within a third of its length
   * in edits (at least 2). None when the list cannot be read: the diagnostic stands without them.
   */
  private async namesLike(name: string): Promise<string[]> {
    let all: Block[];
    try {
      all = await this.blocks('');
    } catch {
      // Recovers: the unknown name is said without suggestions.
      return [];
    }
    const names = [...new Set(all.map((b) => b.spec?.name ?? b.name).filter((n): n is string => typeof n === 'string' && n !== name))];
    const max = Math.max(2, Math.floor(name.length / 3));
    return closestNames(name, names, 3).filter((n) => distanceWithin(fold(name), fold(n), max) <= max);
  }

  async lookup(name: string, version: string): Promise<SpecLookup> {
    let blocks: Block[];
    try {
      blocks = await this.blocks(name);
    } catch (err) {
      // No URL or token (the connection refuses before any request), or a 401.
      if (needsSignIn(err)) return { status: 'signed-out' };
      if (err instanceof ApiError) {
        if (err.status === 404) return { status: 'unknown-block', name, like: await this.namesLike(name) };
        return { status: 'unavailable', reason: err.userMessage };
      }
      return { status: 'unavailable', reason: err instanceof Error ? err.message : String(err) };
    }
    const mine = blocks.filter((b) => (b.spec?.name ?? b.name) === name || b.name === name);
    if (mine.length === 0) return { status: 'unknown-block', name, like: await this.namesLike(name) };
    const match = mine.find((b) => (b.spec?.version ?? b.version) === version);
    if (!match) return { status: 'unknown-version', name, versions: sortVersions(mine.map((b) => b.spec?.version ?? b.version)) };
    return { status: 'found', spec: match.spec };
  }
}
