/**
 * What a row or record stands for on the map: an archive item, an AOI asset (mosaic) or a
 * visualization, resolved to a layer description, or the reason it cannot be drawn.
 */
import { l10n } from 'vscode';
import type { EoClient } from '../../api/client';
import type { ArchiveItem, Asset, Index, Satellite, Visualization } from '../../api/records';
import { aoiAssetSpec, archiveItemSpec, visualizationSpec, type SpecOrNote } from '../../panels/imagery/specs';
import { archiveRefArg, type Row } from '../args/shapes';
import { orReason } from '../../ui/showError';

async function findIndex(client: EoClient, indexId: string): Promise<Index | undefined> {
  if (!indexId) return undefined;
  const found = await orReason(async () => {
    for await (const ix of client.indices.iterate({ index_id: indexId }, { pageSize: 50 })) if (ix.id === indexId) return ix;
    return undefined;
  });
  // an index that cannot be read: the colour map falls back to viridis; the layer still draws
  return 'value' in found ? found.value : undefined;
}

/** The service's satellites, read once per client (the list is whole and rarely changes). */
const satelliteLists = new WeakMap<EoClient, Promise<Satellite[]>>();

/**
 * The satellite an AOI's imagery comes from: its bands describe the AOI's mosaics (wavelengths,
 * scale and offset, true colour). Undefined when the AOI or the satellites cannot be read: the
 * layer then draws with the band names alone.
 */
export async function aoiSatellite(client: EoClient, aoiId: string): Promise<Satellite | undefined> {
  let list = satelliteLists.get(client);
  if (!list) {
    list = client.search.satellites();
    satelliteLists.set(client, list);
    list.catch(() => satelliteLists.delete(client));
  }
  const read = await orReason(() => Promise.all([client.aois.get(aoiId), list]));
  // the AOI or the satellites cannot be read: the layer draws with the band names alone
  return 'value' in read ? read.value[1].find((s) => s.id === read.value[0].satellite_id) : undefined;
}

export async function aoiAssets(client: EoClient, aoiId: string): Promise<Asset[]> {
  const out: Asset[] = [];
  for await (const a of client.aois.iterateAssets(aoiId, { pageSize: 100 })) {
    out.push(a);
    if (out.length >= 500) break;
  }
  return out;
}

export async function visualizationOf(client: EoClient, aoiId: string, visId: string): Promise<Visualization | undefined> {
  for await (const v of client.visualizations.iterate(aoiId, {}, { pageSize: 100 })) if (v.id === visId) return v;
  return undefined;
}

/** What the row is (a sidebar row, a bare record, or a `{collection, id}` reference) → a layer or a note. */
export async function resolveImagery(client: EoClient, row: Row | undefined): Promise<SpecOrNote | { reason: string }> {
  const kind = row?.kind;
  const r = row?.record;
  if (!r) return { reason: l10n.t('Pick an archive item, an AOI asset or a visualization to show its imagery.') };
  if (kind === 'visualization' || (typeof r.expression === 'string' && typeof r.index_id === 'string' && Array.isArray(r.assets))) {
    const vis = r as unknown as Visualization;
    const [assets, index, sat] = await Promise.all([aoiAssets(client, vis.aoi_id), findIndex(client, vis.index_id), aoiSatellite(client, vis.aoi_id)]);
    return visualizationSpec(vis, assets, index, sat);
  }
  if (kind === 'asset' || (typeof r.visualization_id === 'string' && typeof r.aoi_id === 'string')) {
    const a = r as unknown as Asset;
    if (a.visualization_id) {
      const vis = await visualizationOf(client, a.aoi_id, a.visualization_id);
      if (vis) {
        const [assets, index, sat] = await Promise.all([aoiAssets(client, a.aoi_id), findIndex(client, vis.index_id), aoiSatellite(client, a.aoi_id)]);
        return visualizationSpec({ ...vis, assets: [a] }, assets, index, sat);
      }
    }
    return aoiAssetSpec(a, await aoiSatellite(client, a.aoi_id));
  }
  const ref = archiveRefArg(row);
  if (ref) {
    const item: ArchiveItem = ref.item ?? (await client.archives.item(ref.collection, ref.id));
    return archiveItemSpec(item);
  }
  return { reason: l10n.t('This row has no imagery to show.') };
}
