/**
 * Map and STAC item commands: Show on Map, Search Archive Here, Create AOI (from a drawing or
 * from the GeoJSON file in the editor), Open STAC Item, Copy STAC URL.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Aoi } from '../../api/records';
import { isObj } from '../../api/shape';
import { aoiPolygonFromGeoJsonText } from '../../geo/aoiGeometry';
import { orReason } from '../../ui/showError';
import { aoiFeature, mapTargetOf } from '../../panels/mapData';
import { stacItemUrl } from '../../panels/stacUrl';
import type { CommandServices } from '../services';
import { createAoi } from '../aois/createAoi';
import { firstAois } from './firstAois';
import { searchOver, searchRingOf } from './searchArea';
import type { ArchiveRef, Row } from '../args';
import type { CommandTable } from '../register';

export function mapCommands(services: CommandServices): CommandTable {
  const { ui, panels } = services;

  const showOnMap = async (row: Row | undefined) => {
    if (row === undefined) {
      // from the palette: the map with the first page of AOIs
      const panel = panels.showMap();
      const listed = await firstAois(services);
      // the map opens anyway and says on itself why no AOI is drawn
      if ('reason' in listed) panel.notice(l10n.t('Could not list AOIs: {0}', listed.reason), 'error');
      else
        panel.showTarget(
          { layer: 'aois', features: listed.aois.map(aoiFeature), sources: listed.aois.map((a) => ({ kind: 'aoi' as const, id: a.aoi_id })) },
          { mode: 'replace' },
        );
      return;
    }
    const t = mapTargetOf(row.kind ? row : row.record);
    if ('reason' in t) {
      void ui.message('warning', t.reason, {});
      return;
    }
    panels.showMap().showTarget(t, { fit: true, select: true });
  };

  const createAoiFromGeoJson = async (uri: vscode.Uri | undefined) => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void ui.message('warning', l10n.t('Open a GeoJSON file (a Polygon, or a Feature/FeatureCollection holding one) first.'), {});
      return;
    }
    const parsed = aoiPolygonFromGeoJsonText(doc.getText());
    if (!parsed.ok) {
      void ui.message('error', l10n.t('Cannot create an AOI from {0}: {1}', vscode.workspace.asRelativePath(doc.uri), parsed.reason), {});
      return;
    }
    const aoi = await createAoi(services, { polygon: parsed.polygon, source: doc.uri.toString() });
    if (!aoi) return;
    void services.explorer.reveal('aoi', aoi.aoi_id, { focus: true });
    panels.showMap().showTarget({ layer: 'aois', features: [aoiFeature(aoi)], sources: [{ kind: 'aoi', id: aoi.aoi_id }] }, { fit: true, select: true });
  };

  /**
   * Runs the map's search over an AOI's outline with the form's filters (the defaults the
   * form shows, or what the person set there); the default dates take in the AOI's image dates.
   */
  const searchAoi = async (aoi: Pick<Aoi, 'aoi_id' | 'name' | 'geometry'> & Partial<Aoi>): Promise<void> => {
    const ring = searchRingOf(aoi.geometry);
    if (!ring) {
      void ui.message('warning', l10n.t('AOI "{0}" has no polygon to search over.', aoi.name), {});
      return;
    }
    const panel = panels.showMap();
    if (aoi.area_in_sq_m !== undefined) {
      panel.showTarget({ layer: 'aois', features: [aoiFeature(aoi as Aoi)], sources: [{ kind: 'aoi', id: aoi.aoi_id }] }, { fit: false });
    }
    panel.runSearch(searchOver(ring, 'polygon', panel.lastSearch), { useForm: true, anchors: await aoiDates(services, aoi) });
  };

  /**
   * "Search Archive Here": an AOI given (its row) is searched at once; from the palette the
   * person chooses the area: an AOI shown on the map first, any of their AOIs, or drawing one.
   */
  const searchArchiveHere = async (given: Aoi | undefined) => {
    if (given) {
      await searchAoi(given);
      return;
    }
    type AreaItem = vscode.QuickPickItem & { aoi?: Pick<Aoi, 'aoi_id' | 'name' | 'geometry'> & Partial<Aoi>; draw?: 'rectangle' | 'polygon'; view?: boolean };
    const onMap = (panels.currentMap()?.shown('aois') ?? []).filter((f) => f.ref.kind === 'aoi' && searchRingOf(f.geometry));
    const items: AreaItem[] = onMap.map((f) => ({
      label: f.label,
      iconPath: new vscode.ThemeIcon('map'),
      description: l10n.t('shown on the map'),
      detail: f.detail,
      aoi: { aoi_id: f.id, name: f.label, geometry: f.geometry as Aoi['geometry'] },
    }));
    const seen = new Set(onMap.map((f) => f.id));
    // the person can still draw an area; the picker says why their AOIs are missing
    const listed = await firstAois(services);
    const listError = 'reason' in listed ? listed.reason : undefined;
    for (const a of 'aois' in listed ? listed.aois : [])
      if (!seen.has(a.aoi_id)) items.push({ label: a.name, iconPath: new vscode.ThemeIcon('location'), description: aoiFeature(a).detail, aoi: a });
    items.push(...drawnAreaItems());
    const chosen = await ui.pick(items, {
      title: l10n.t('Search Archive Here'),
      placeHolder: listError
        ? l10n.t('Where to search? (your AOIs could not be listed: {0})', listError)
        : l10n.t('Where to search? Pick an AOI, or draw an area'),
      matchOnDescription: true,
    });
    if (!chosen) return;
    if (chosen.aoi) await searchAoi(chosen.aoi);
    else if (chosen.draw) panels.showMap().startDraw(chosen.draw, 'search');
    else if (chosen.view) panels.showMap().searchView();
  };

  return {
    showOnMap: { action: l10n.t('Show on Map'), retry: 'transient', run: showOnMap },
    searchArchiveHere: { action: l10n.t('Search Archive Here'), retry: 'transient', run: searchArchiveHere },
    createAoiFromDrawing: { action: l10n.t('Create AOI'), retry: 'never', run: () => panels.showMap().startDraw('polygon', 'aoi') },
    // Creating an AOI is a POST that makes a record: never sent again without the person.
    createAoiFromGeoJson: { action: l10n.t('Create AOI'), retry: 'never', run: createAoiFromGeoJson },
    openStacItem: { action: l10n.t('Open STAC Item'), retry: 'transient', run: (given) => openStacItem(services, given) },
    copyStacUrl: { action: l10n.t('Copy STAC URL'), retry: 'transient', run: (ref) => copyStacUrl(services, ref) },
  };
}

/** Open STAC Item: the item given, or the one typed as collection/id. */
async function openStacItem(services: CommandServices, given: ArchiveRef | undefined): Promise<void> {
  let ref = given;
  if (!ref) {
    const text = await services.ui.input({
      title: l10n.t('Open STAC Item'),
      prompt: l10n.t('The collection id, a slash, and the item id'),
      placeHolder: l10n.t('e.g. sentinel-2-l2a/S2A_…'),
      validateInput: (v) => (/^[^/\s]+\/[^\s]+$/.test(v.trim()) ? undefined : l10n.t('Type the collection id, a slash, and the item id.')),
    });
    if (!text) return;
    const t = text.trim();
    const i = t.indexOf('/');
    ref = { collection: t.slice(0, i), id: t.slice(i + 1) };
  }
  services.panels.showStacItem(ref, ref.item);
}

/** Copy STAC URL of an archive item. */
async function copyStacUrl(services: CommandServices, ref: ArchiveRef | undefined): Promise<void> {
  if (!ref) {
    void services.ui.message('warning', l10n.t('Pick an archive item to copy its STAC URL.'), {});
    return;
  }
  const client = await services.connection.getClient();
  await vscode.env.clipboard.writeText(stacItemUrl(client.baseUrl, ref, ref.item));
  void vscode.window.setStatusBarMessage(l10n.t('STAC URL copied'), 3000);
}

/**
 * The days an AOI is known to have imagery: its images' (`images` maps each image id to what
 * the service says of it, a `datetime` among it), else its assets' dates (the first page). None
 * when neither can be read: the search then keeps the collections' dates.
 */
async function aoiDates(services: CommandServices, aoi: Partial<Aoi>): Promise<string[]> {
  const out: string[] = [];
  for (const v of Object.values(isObj(aoi.images) ? aoi.images : {})) {
    const t = isObj(v) ? (v.datetime ?? v.date) : undefined;
    if (typeof t === 'string' && /^\d{4}-\d{2}-\d{2}/.test(t)) out.push(t.slice(0, 10));
  }
  const aoiId = aoi.aoi_id;
  if (out.length || !aoiId) return out;
  const read = await orReason(async () => {
    const client = await services.connection.getClient();
    let n = 0;
    for await (const a of client.aois.iterateAssets(aoiId, { pageSize: 50 })) {
      if (/^\d{4}-\d{2}-\d{2}/.test(a.date ?? '')) out.push(a.date.slice(0, 10));
      if (++n >= 50) break;
    }
  });
  // the search goes on without the AOI's dates as suggestions
  if ('reason' in read) services.log.warn(`Search Archive Here: the dates of AOI ${aoiId} could not be read: ${read.reason}`);
  return out;
}

/** The areas a person can draw or take from the view, after their AOIs in Search Archive Here. */
function drawnAreaItems(): (vscode.QuickPickItem & { draw?: 'rectangle' | 'polygon'; view?: boolean })[] {
  const then = l10n.t('then the search runs over it');
  const edit = new vscode.ThemeIcon('edit');
  return [
    { label: l10n.t('Draw a rectangle on the map…'), iconPath: edit, description: then, draw: 'rectangle' },
    { label: l10n.t('Draw a polygon on the map…'), iconPath: edit, description: then, draw: 'polygon' },
    { label: l10n.t('The area the map shows now'), iconPath: new vscode.ThemeIcon('screen-full'), description: l10n.t('no drawing needed'), view: true },
  ];
}
