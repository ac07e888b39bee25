/**
 * "Show Imagery": an archive item (sidebar row, search result on the map, STAC page), an AOI
 * asset or a visualization drawn on the map from its GeoTIFF. `showImageryLayer` is the one
 * entry point for any COG (an insight's raster output, for one), given its layer description.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { COMMANDS } from '../../commandIds';
import type { EoClient } from '../../api/client';
import type { ArchiveItem, Asset, Index, Visualization } from '../../api/records';
import { describeError } from '../../ui/showError';
import { aoiAssetSpec, archiveItemSpec, visualizationSpec, type SpecOrNote } from '../../panels/imagery/specs';
import type { CommandServices } from '../services';
import { archiveRefOf } from '../map';


const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Any Cloud-Optimized GeoTIFF on the map (built by `src/panels/imagery/specs.ts`): its
 * `render` says how (three bands stretched, an expression through a colour map, or classes
 * with their colours), each with its legend; a note instead says why it cannot be drawn.
 */
export function showImageryLayer(services: CommandServices, layer: SpecOrNote): void {
  const panel = services.panels.showMap();
  if ('note' in layer) panel.imageryNote(layer.note.id, layer.note.title, layer.note.text);
  else panel.showImagery(layer.spec, { previewUrl: layer.previewUrl });
}

async function findIndex(client: EoClient, indexId: string): Promise<Index | undefined> {
  if (!indexId) return undefined;
  try {
    for await (const ix of client.indices.iterate({ index_id: indexId }, { pageSize: 50 })) if (ix.id === indexId) return ix;
  } catch {
    // the colour map then falls back to viridis; the layer still draws
  }
  return undefined;
}

async function aoiAssets(client: EoClient, aoiId: string): Promise<Asset[]> {
  const out: Asset[] = [];
  for await (const a of client.aois.iterateAssets(aoiId, { pageSize: 100 })) {
    out.push(a);
    if (out.length >= 500) break;
  }
  return out;
}

async function visualizationOf(client: EoClient, aoiId: string, visId: string): Promise<Visualization | undefined> {
  for await (const v of client.visualizations.iterate(aoiId, {}, { pageSize: 100 })) if (v.id === visId) return v;
  return undefined;
}

/** What the argument is (a sidebar row `{kind, record}`, a bare record, or a `{collection, id}` reference) → a layer or a note. */
async function resolve(client: EoClient, arg: unknown): Promise<SpecOrNote | { reason: string }> {
  const row = isObj(arg) && isObj(arg.record) ? arg : undefined;
  const kind = row && typeof row.kind === 'string' ? row.kind : undefined;
  const r = row ? (row.record as Record<string, unknown>) : isObj(arg) ? arg : undefined;
  if (!r) return { reason: l10n.t('Pick an archive item, an AOI asset or a visualization to show its imagery.') };
  if (kind === 'visualization' || (typeof r.expression === 'string' && typeof r.index_id === 'string' && Array.isArray(r.assets))) {
    const vis = r as unknown as Visualization;
    const [assets, index] = await Promise.all([aoiAssets(client, vis.aoi_id), findIndex(client, vis.index_id)]);
    return visualizationSpec(vis, assets, index);
  }
  if (kind === 'asset' || (typeof r.visualization_id === 'string' && typeof r.aoi_id === 'string')) {
    const a = r as unknown as Asset;
    if (a.visualization_id) {
      const vis = await visualizationOf(client, a.aoi_id, a.visualization_id);
      if (vis) {
        const [assets, index] = await Promise.all([aoiAssets(client, a.aoi_id), findIndex(client, vis.index_id)]);
        return visualizationSpec({ ...vis, assets: [a] }, assets, index);
      }
    }
    return aoiAssetSpec(a);
  }
  const ref = archiveRefOf(arg);
  if (ref) {
    const item: ArchiveItem = ref.item ?? (await client.archives.item(ref.collection, ref.id));
    return archiveItemSpec(item);
  }
  return { reason: l10n.t('This row has no imagery to show.') };
}

export function registerImageryCommands(services: CommandServices): vscode.Disposable[] {
  const showImagery = async (arg?: unknown) => {
    try {
      const client = await services.connection.getClient();
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: l10n.t('Finding the imagery…') },
        () => resolve(client, arg),
      );
      if ('reason' in r) {
        void services.ui.message('warning', r.reason, {});
        return;
      }
      showImageryLayer(services, r);
    } catch (e) {
      void services.ui.message('error', l10n.t('Show Imagery: {0}', describeError(e)), {});
    }
  };
  return [vscode.commands.registerCommand(COMMANDS.showImagery, showImagery)];
}
