/**
 * Map and STAC item commands: Show on Map, Search Archive Here, Create AOI (from a drawing or
 * from the GeoJSON file in the editor), Open STAC Item, Copy STAC URL.
 */
import vscode = require('vscode');
import type { ArchiveItem } from '../../api/records';
import { aoiPolygonFromGeoJsonText } from '../../geo/aoiGeometry';
import { describeError } from '../../ui/showError';
import { aoiFeature, mapTargetOf } from '../../panels/mapData';
import { stacItemUrl } from '../../panels/stacUrl';
import type { CommandServices } from '../services';
import { COMMANDS } from '../../commandIds';
import { createAoi } from '../aois/createAoi';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{collection, id}` of an archive item, a sidebar row holding one, or a reference. */
export function archiveRefOf(arg: unknown): { collection: string; id: string; item?: ArchiveItem } | undefined {
  const r = isObj(arg) && isObj(arg.record) ? arg.record : arg;
  if (!isObj(r) || typeof r.collection !== 'string' || typeof r.id !== 'string') return undefined;
  const full = r.type === 'Feature' && isObj(r.properties) ? (r as unknown as ArchiveItem) : undefined;
  return { collection: r.collection, id: r.id, item: full };
}

export function registerMapCommands(services: CommandServices): vscode.Disposable[] {
  const { ui, panels } = services;
  const fail = (what: string, e: unknown) => {
    services.log.warn(`${what}: ${describeError(e)}`);
    void ui.message('error', `${what}: ${describeError(e)}`, {});
  };

  const showOnMap = async (arg?: unknown) => {
    if (arg === undefined) {
      // from the palette: the map with the first page of AOIs
      const panel = panels.showMap();
      try {
        const client = await services.connection.getClient();
        const page = await client.aois.listPage({ offset: 0, limit: 100 });
        panel.showTarget({ layer: 'aois', features: page.items.map(aoiFeature), sources: page.items.map((a) => ({ kind: 'aoi' as const, id: a.aoi_id })) }, { mode: 'replace' });
      } catch (e) {
        panel.notice(`Could not list AOIs: ${describeError(e)}`, 'error');
      }
      return;
    }
    const t = mapTargetOf(arg);
    if ('reason' in t) {
      void ui.message('warning', t.reason, {});
      return;
    }
    panels.showMap().showTarget(t, { fit: true, select: true });
  };

  const openStacItem = async (arg?: unknown) => {
    let ref = archiveRefOf(arg);
    if (!ref) {
      const text = await ui.input({
        title: 'Open STAC Item', prompt: 'collection-id/item-id', placeHolder: 'sentinel-2-l2a/S2A_…',
        validateInput: (v) => (/^[^/\s]+\/[^\s]+$/.test(v.trim()) ? undefined : 'Type the collection id, a slash, and the item id.'),
      });
      if (!text) return;
      const t = text.trim();
      const i = t.indexOf('/');
      ref = { collection: t.slice(0, i), id: t.slice(i + 1) };
    }
    panels.showStacItem(ref, ref.item);
  };

  const copyStacUrl = async (arg?: unknown) => {
    const ref = archiveRefOf(arg);
    if (!ref) {
      void ui.message('warning', 'Pick an archive item to copy its STAC URL.', {});
      return;
    }
    try {
      const client = await services.connection.getClient();
      await vscode.env.clipboard.writeText(stacItemUrl(client.baseUrl, ref, ref.item));
      void vscode.window.setStatusBarMessage('STAC URL copied', 3000);
    } catch (e) {
      fail('Copy STAC URL', e);
    }
  };

  const createAoiFromGeoJson = async (uri?: unknown) => {
    const doc = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void ui.message('warning', 'Open a GeoJSON file (a Polygon, or a Feature/FeatureCollection holding one) first.', {});
      return;
    }
    const parsed = aoiPolygonFromGeoJsonText(doc.getText());
    if (!parsed.ok) {
      void ui.message('error', `Cannot create an AOI from ${vscode.workspace.asRelativePath(doc.uri)}: ${parsed.reason}`, {});
      return;
    }
    try {
      const aoi = await createAoi(services, { polygon: parsed.polygon, source: doc.uri.toString() });
      if (!aoi) return;
      void services.explorer.reveal('aoi', aoi.aoi_id, { focus: true });
      panels.showMap().showTarget({ layer: 'aois', features: [aoiFeature(aoi)], sources: [{ kind: 'aoi', id: aoi.aoi_id }] }, { fit: true, select: true });
    } catch (e) {
      fail('Create AOI', e);
    }
  };

  return [
    vscode.commands.registerCommand(COMMANDS.showOnMap, showOnMap),
    vscode.commands.registerCommand(COMMANDS.searchArchiveHere, () => panels.showMap().startDraw('rectangle', 'search')),
    vscode.commands.registerCommand(COMMANDS.createAoiFromDrawing, () => panels.showMap().startDraw('polygon', 'aoi')),
    vscode.commands.registerCommand(COMMANDS.createAoiFromGeoJson, createAoiFromGeoJson),
    vscode.commands.registerCommand(COMMANDS.openStacItem, openStacItem),
    vscode.commands.registerCommand(COMMANDS.copyStacUrl, copyStacUrl),
  ];
}
