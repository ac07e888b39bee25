/** The static part of the world, rebuilt from the seed on every start (never persisted). */
import type { Bandset, Block, Index, Satellite } from '../../api/records';
import { ArchiveIndex } from '../archiveSearch';
import { Rng } from '../prng';
import type { User } from '../state';
import { isoZ } from '../timefmt';
import { type ArchiveRow, COLLECTION_DEFS, generateArchive } from './archive';
import { BLOCKS } from './blocks';
import { presetIndices } from './indices';
import { BANDSETS, SATELLITES, satelliteByCollection } from './satellites';

/** Creation date of the preset indices (they predate every user). */
export const WORLD_EPOCH = Date.UTC(2025, 6, 1);

export interface World {
  seed: number;
  scale: number;
  users: User[];
  rows: ArchiveRow[];
  archive: ArchiveIndex;
  presets: Index[];
  satellites: readonly Satellite[];
  bandsets: readonly Bandset[];
  blocks: readonly Block[];
  bandsForArchive(itemId: string): number;
}

export function buildWorld(seed: number, scale: number): World {
  const rng = new Rng(seed).fork('users');
  const users: User[] = [
    { id: rng.uuid(), key: 'alice', name: 'Alice Analyst', org_id: `org-${rng.uuid().slice(0, 8)}`, satellites: SATELLITES.map((s) => s.id), canReport: true },
    {
      id: rng.uuid(),
      key: 'bob',
      name: 'Bob Builder',
      org_id: `org-${rng.uuid().slice(0, 8)}`,
      satellites: ['sentinel-2', 'landsat-8-9', 'enmap'],
      canReport: false,
    },
  ];
  const rows = generateArchive(seed, scale);
  const archive = new ArchiveIndex(rows);
  return {
    seed,
    scale,
    users,
    rows,
    archive,
    presets: presetIndices(isoZ(WORLD_EPOCH - 400 * 86_400_000)),
    satellites: SATELLITES,
    bandsets: BANDSETS,
    blocks: BLOCKS,
    bandsForArchive(itemId: string): number {
      const r = archive.get(itemId);
      return r ? (satelliteByCollection(COLLECTION_DEFS[r.c].id)?.bands.length ?? 0) : 0;
    },
  };
}
