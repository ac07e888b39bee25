/**
 * Map and STAC item commands: Show on Map, Search Archive Here, Create AOI (from a drawing or
 * from the GeoJSON file in the editor), Open STAC Item, Copy STAC URL; and the serializers
 * that bring both panels back after a window reload.
 */
import vscode = require('vscode');
import type { ArchiveItem } from '../../api/records';
import { aoiPolygonFromGeoJsonText } from '../../geo/aoiGeometry';
import { describeError } from '../../panels/host';
import { aoiFeature, mapTargetOf } from '../../panels/mapData';
import { MAP_VIEW_TYPE, MapPanel } from '../../panels/mapPanel';
import type { DetailRef, MapState, StacState } from '../../panels/protocol';
import { STAC_VIEW_TYPE, StacItemPanel } from '../../panels/stacItemPanel';
import type { ExtensionServices } from '../../services';
import { createAoi } from '../aois/createAoi';

export const MAP_COMMANDS = {
  showOnMap: 'eoImagery.showOnMap',
  searchArchiveHere: 'eoImagery.searchArchiveHere',
  createAoiFromDrawing: 'eoImagery.createAoiFromDrawing',
  createAoiFromGeoJson: 'eoImagery.createAoiFromGeoJson',
  openStacItem: 'eoImagery.openStacItem',
  copyStacUrl: 'eoImagery.copyStacUrl',
} as const;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{collection, id}` of an archive item, a sidebar row holding one, or a reference. */
export function archiveRefOf(arg: unknown): { collection: string; id: string; item?: ArchiveItem } | undefined {
  const r = isObj(arg) && isObj(arg.record) ? arg.record : arg;
  if (!isObj(r) || typeof r.collection !== 'string' || typeof r.id !== 'string') return undefined;
  const full = r.type === 'Feature' && isObj(r.properties) ? (r as unknown as ArchiveItem) : undefined;
  return { collection: r.collection, id: r.id, item: full };
}

export function registerMapCommands(services: ExtensionServices): vscode.Disposable[] {
  const { ui } = services;
  const fail = (what: string, e: unknown) => {
    services.log.warn(`${what}: ${describeError(e).message}`);
    void ui.message('error', `${what}: ${describeError(e).message}`, {});
  };

  MapPanel.openDetail = (s, ref, preview) => openDetail(s, ref, preview);

  const showOnMap = async (arg?: unknown) => {
    if (arg === undefined) {
      // from the palette: the map with the first page of AOIs
      const panel = MapPanel.show(services);
      try {
        const client = await services.connection.getClient();
        const page = await client.aois.listPage({ offset: 0, limit: 100 });
        panel.showTarget({ layer: 'aois', features: page.items.map(aoiFeature), sources: page.items.map((a) => ({ kind: 'aoi' as const, id: a.aoi_id })) }, { mode: 'replace' });
      } catch (e) {
        panel.notice(`Could not list AOIs: ${describeError(e).message}`, 'error');
      }
      return;
    }
    const t = mapTargetOf(arg);
    if ('reason' in t) {
      void ui.message('warning', t.reason, {});
      return;
    }
    MapPanel.show(services).showTarget(t, { fit: true, select: true });
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
    StacItemPanel.show(services, ref, ref.item);
  };

  const copyStacUrl = async (arg?: unknown) => {
    const ref = archiveRefOf(arg);
    if (!ref) {
      void ui.message('warning', 'Pick an archive item to copy its STAC URL.', {});
      return;
    }
    const self = ref.item?.links?.find((l) => l.rel === 'self')?.href;
    try {
      const client = await services.connection.getClient();
      const url = self && /^https?:\/\//.test(self)
        ? self
        : `${client.baseUrl}/v0/archives/collections/${encodeURIComponent(ref.collection)}/items/${encodeURIComponent(ref.id)}`;
      await vscode.env.clipboard.writeText(url);
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
      void services.explorer?.reveal('aoi', aoi.aoi_id, { focus: true });
      MapPanel.show(services).showTarget({ layer: 'aois', features: [aoiFeature(aoi)], sources: [{ kind: 'aoi', id: aoi.aoi_id }] }, { fit: true, select: true });
    } catch (e) {
      fail('Create AOI', e);
    }
  };

  const serializers = {
    [MAP_VIEW_TYPE]: {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => void MapPanel.revive(services, panel, state as MapState | undefined),
    },
    [STAC_VIEW_TYPE]: {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => StacItemPanel.revive(services, panel, state as StacState | undefined),
    },
  } as const;
  services.panels = { map: () => MapPanel.open?.probe, stacItems: () => StacItemPanel.probes(), serializers };

  return [
    vscode.commands.registerCommand(MAP_COMMANDS.showOnMap, showOnMap),
    vscode.commands.registerCommand(MAP_COMMANDS.searchArchiveHere, () => MapPanel.show(services).startDraw('rectangle', 'search')),
    vscode.commands.registerCommand(MAP_COMMANDS.createAoiFromDrawing, () => MapPanel.show(services).startDraw('polygon', 'aoi')),
    vscode.commands.registerCommand(MAP_COMMANDS.createAoiFromGeoJson, createAoiFromGeoJson),
    vscode.commands.registerCommand(MAP_COMMANDS.openStacItem, openStacItem),
    vscode.commands.registerCommand(MAP_COMMANDS.copyStacUrl, copyStacUrl),
    vscode.window.registerWebviewPanelSerializer(MAP_VIEW_TYPE, serializers[MAP_VIEW_TYPE]),
    vscode.window.registerWebviewPanelSerializer(STAC_VIEW_TYPE, serializers[STAC_VIEW_TYPE]),
    { dispose: () => MapPanel.open?.dispose() },
  ];
}

/**
 * A footprint's detail: the STAC page for archive items, the sidebar row otherwise. From a
 * click on the map (`preview`) the detail shows beside the map, which keeps the focus.
 */
async function openDetail(services: ExtensionServices, ref: DetailRef, preview = false): Promise<void> {
  if (ref.kind === 'archiveItem') {
    if (preview) StacItemPanel.preview(services, { collection: ref.collection, id: ref.id });
    else StacItemPanel.show(services, { collection: ref.collection, id: ref.id });
    return;
  }
  if (ref.kind === 'insightRun') {
    await vscode.commands.executeCommand('eoImagery.showInsightOutputs', { aoiId: ref.aoiId, id: ref.id });
    return;
  }
  const node = await services.explorer?.reveal(ref.kind, ref.id, { focus: !preview, expand: ref.kind === 'aoi' && !preview });
  if (!node && !preview) void services.ui.message('info', `The ${ref.kind} ${ref.id} is not in the sidebar's loaded pages.`, {});
}
