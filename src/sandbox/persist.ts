/**
 * State on disk as one JSON file, written atomically: a temp file in the same directory is
 * written and fsynced, then renamed over the old one, so a crash leaves either the old or the
 * new state and nothing a client was told is stored can be lost.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { State } from './state';

const FILE = 'sandbox-state.json';

export async function loadState(dir: string): Promise<State | undefined> {
  try {
    const text = await fs.readFile(path.join(dir, FILE), 'utf8');
    const s = JSON.parse(text) as State;
    return s.version === 1 ? s : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${path.join(dir, FILE)}: ${(e as Error).message}`);
  }
}

/** Writes `state` (or its JSON text) atomically; a failed write leaves no temp file behind. */
export async function saveState(dir: string, state: State | string): Promise<void> {
  const text = typeof state === 'string' ? state : JSON.stringify(state);
  await fs.mkdir(dir, { recursive: true });
  const target = path.join(dir, FILE);
  const tmp = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  try {
    const fh = await fs.open(tmp, 'w');
    try {
      await fh.writeFile(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, target);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * Serialises saves so that a later state never gets overwritten by an earlier one, and keeps
 * memory and disk in step: when a save fails, the state in memory is put back to what the
 * file holds, so a change the client is told failed (500) is not kept either.
 */
export class Persister {
  private chain: Promise<void> = Promise.resolve();
  private lastSaved: string;

  constructor(
    private readonly dir: string,
    initial: State,
  ) {
    this.lastSaved = JSON.stringify(initial);
  }

  save(state: State): Promise<void> {
    const next = this.chain.then(async () => {
      let text: string;
      try {
        text = JSON.stringify(state);
        await saveState(this.dir, text);
      } catch (e) {
        this.restore(state);
        throw e;
      }
      this.lastSaved = text;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  private restore(state: State): void {
    const saved = JSON.parse(this.lastSaved) as State;
    const live = state as unknown as Record<string, unknown>;
    for (const key of Object.keys(live)) delete live[key];
    Object.assign(live, saved);
  }
}
