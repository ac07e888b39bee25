/**
 * Reads again what the map's layers showed (after a window reload): one record per source, and
 * single assets by walking their AOI's asset listing (the service has no GET for one asset),
 * insight outputs by listing the run and reading its GeoJSON again.
 * No vscode: the map panel calls it with its client.
 */
import type { EoClient } from '../api/client';
import { aoiFeature, archiveItemFeature, assetFeature, catalogFeature, insightOutputFeatures, orderItemFeatures, type MapTarget } from './mapData';
import type { MapFeature, MapSource } from './protocol';

/**
 * How many assets of one AOI a restore reads at most, like every other walk of a listing: a
 * server that keeps announcing a larger total must not keep us paging forever.
 */
export const MAX_ASSETS_WALKED = 1000;

/** The assets `ids` of one AOI, read page by page until all are found (or the cap). */
export async function fetchAssets(client: EoClient, aoiId: string, ids: ReadonlySet<string>): Promise<MapTarget | undefined> {
  const found: MapFeature[] = [];
  let walked = 0;
  for await (const a of client.aois.iterateAssets(aoiId, { pageSize: 100, cap: MAX_ASSETS_WALKED })) {
    walked++;
    if (ids.has(a.id)) found.push(assetFeature(a));
    if (found.length === ids.size) break;
  }
  const missing = ids.size - found.length;
  if (missing > 0 && walked >= MAX_ASSETS_WALKED) throw new Error(`${missing} asset(s) of AOI ${aoiId} are not among its first ${MAX_ASSETS_WALKED} assets`);
  if (missing > 0) throw new Error(`${missing} asset(s) of AOI ${aoiId} no longer exist`);
  return { layer: 'assets', features: found, sources: found.map((f) => ({ kind: 'asset', aoiId, id: f.id })) };
}

export async function fetchSource(client: EoClient, s: MapSource): Promise<MapTarget | undefined> {
  switch (s.kind) {
    case 'aoi':
      return { layer: 'aois', features: [aoiFeature(await client.aois.get(s.id))], sources: [s] };
    case 'orderItem':
      return { layer: 'orderItems', features: orderItemFeatures(await client.orderItems.get(s.id)), sources: [s] };
    case 'catalog': {
      const f = catalogFeature(await client.catalogs.get(s.id));
      return f ? { layer: 'catalogs', features: [f], sources: [s] } : undefined;
    }
    case 'archiveItem':
      return { layer: 'archiveItems', features: [archiveItemFeature(await client.archives.item(s.collection, s.id))], sources: [s] };
    case 'asset':
      return fetchAssets(client, s.aoiId, new Set([s.id]));
    case 'insightOutput': {
      const run = (await client.insightRuns.list(s.aoiId, { id: s.runId })).find((r) => r.id === s.runId);
      const out = run?.output.find((o) => o.name === s.output);
      if (!run || !out) throw new Error(`output ${s.output} of insight run ${s.runId} no longer exists`);
      return { layer: 'insightOutputs', features: insightOutputFeatures(run, out.name, await client.outputGeoJson(out.value)), sources: [s] };
    }
    case 'aoiAssets': {
      const page = await client.aois.assetsPage(s.aoiId, { limit: 100 });
      return { layer: 'assets', features: page.items.map(assetFeature), sources: [s] };
    }
    default:
      return undefined;
  }
}
