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

export async function saveState(dir: string, state: State): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const target = path.join(dir, FILE);
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  const fh = await fs.open(tmp, 'w');
  try {
    await fh.writeFile(JSON.stringify(state));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fs.rename(tmp, target);
}

/** Serialises saves so that a later state never gets overwritten by an earlier one. */
export class Persister {
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly dir: string) {}

  save(state: State): Promise<void> {
    const next = this.chain.then(() => saveState(this.dir, state));
    this.chain = next.catch(() => undefined);
    return next;
  }
}
