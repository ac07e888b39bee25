/**
 * Dated imagery of one place, for compare and the time slider: an AOI's mosaics (one per date)
 * and archive items (the map's search results, or a collection's items over a footprint), as
 * layer descriptions with their date and cloud cover. Records that cannot be drawn are left
 * out; the first reason is kept so that "nothing to show" can say why.
 */
import { l10n } from 'vscode';
import type { EoClient } from '../../api/client';
import type { Aoi, ArchiveItem } from '../../api/records';
import { day } from '../../format';
import { aoiAssetSpec, archiveItemSpec } from '../../panels/imagery/specs';
import type { TimeFrame } from '../../panels/imagery/protocol';
import { aoiAssets, aoiSatellite } from './resolve';

export interface Dated {
  frames: TimeFrame[];
  /** Why the first left-out record cannot be drawn. */
  skipped?: string;
}

/** An AOI's mosaics that can be drawn, one per date (the first listed), oldest first. */
export async function aoiFrames(client: EoClient, aoiId: string): Promise<Dated> {
  const seen = new Set<string>();
  const out: Dated = { frames: [] };
  const [assets, sat] = await Promise.all([aoiAssets(client, aoiId), aoiSatellite(client, aoiId)]);
  for (const a of assets) {
    if (a.visualization_id || !a.date || seen.has(a.date)) continue;
    const r = aoiAssetSpec(a, sat);
    if ('note' in r) {
      out.skipped ??= r.note.text;
      continue;
    }
    seen.add(a.date);
    out.frames.push({ spec: r.spec, date: day(a.date) });
  }
  out.frames.sort((x, y) => x.date.localeCompare(y.date));
  return out;
}

export function itemFrame(item: ArchiveItem): TimeFrame | { note: string } {
  const r = archiveItemSpec(item);
  if ('note' in r) return { note: r.note.text };
  const cloud = item.properties?.['eo:cloud_cover'];
  return {
    spec: r.spec,
    date: day(item.properties?.datetime ?? item.properties?.startdatetime ?? ''),
    cloudCover: typeof cloud === 'number' && Number.isFinite(cloud) ? cloud : undefined,
  };
}

export function itemFrames(items: readonly ArchiveItem[]): Dated {
  const out: Dated = { frames: [] };
  const ids = new Set<string>();
  for (const item of items) {
    const f = itemFrame(item);
    if ('note' in f) {
      out.skipped ??= f.note;
      continue;
    }
    if (ids.has(f.spec.id)) continue;
    ids.add(f.spec.id);
    out.frames.push(f);
  }
  out.frames.sort((x, y) => x.date.localeCompare(y.date));
  return out;
}

function overlaps(a: number[] | undefined, b: number[] | undefined): boolean {
  if (!a || !b || a.length < 4 || b.length < 4) return false;
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/**
 * Other archive items over an item's footprint: the map's search results, then the first
 * page (100) of its collection, each once.
 */
export async function itemsOver(client: EoClient, item: ArchiveItem, searchResults: readonly ArchiveItem[]): Promise<ArchiveItem[]> {
  const out = new Map<string, ArchiveItem>();
  const add = (i: ArchiveItem) => {
    if (overlaps(i.bbox, item.bbox)) out.set(`${i.collection}/${i.id}`, i);
  };
  add(item);
  searchResults.forEach(add);
  let n = 0;
  for await (const i of client.archives.iterateItems(item.collection, { pageSize: 100 })) {
    add(i);
    if (++n >= 100) break;
  }
  return [...out.values()];
}

/**
 * "2024-06-01 · 12 % cloud" for a picker row; the date is left out when the row's label already
 * says it ("Mosaic 2024-06-01"), so that no row shows its date twice.
 */
export function frameDetail(f: TimeFrame): string {
  const cloud = f.cloudCover === undefined ? undefined : l10n.t('{0} % cloud', Math.round(f.cloudCover));
  if (f.spec.title.includes(f.date)) return cloud ?? '';
  return cloud ? l10n.t('{0} · {1}', f.date, cloud) : f.date;
}

export function aoiName(aoi: Record<string, unknown>): string {
  const a = aoi as Partial<Aoi>;
  return a.name || a.aoi_id || l10n.t('AOI');
}
