/**
 * The basemaps the layer control offers: each configured XYZ source, falling back to the
 * offline outlines when its tiles cannot be loaded, and the offline outlines themselves.
 */
import * as L from 'leaflet';
import * as l10n from '@vscode/l10n';
import type { Basemap } from '../../src/panels/protocol';
import { showNotice } from '../shared/notice';
import { offlineName } from '../shared/offlineBasemap';

/** Text for Leaflet controls that insert names as HTML (layer names, attribution). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The base layers by their names in the layer control (escaped), the offline outlines last. */
export function basemapLayers(map: L.Map, basemaps: Basemap[], offline: L.Layer): Record<string, L.Layer> {
  const layers: Record<string, L.Layer> = {};
  for (const b of basemaps) {
    const tiles = L.tileLayer(b.url, {
      attribution: escapeHtml(b.attribution),
      maxZoom: b.maxZoom ?? 19,
      subdomains: b.subdomains ?? 'abc',
      crossOrigin: false,
    });
    watchTiles(map, tiles, b.name, offline);
    layers[escapeHtml(b.name)] = tiles;
  }
  layers[offlineName()] = offline;
  return layers;
}

/** No network (as on these machines)? Fall back to the offline outlines once, and say so. */
function watchTiles(map: L.Map, tiles: L.TileLayer, name: string, offline: L.Layer): void {
  let loaded = false;
  let failed = 0;
  tiles.on('tileload', () => (loaded = true));
  tiles.on('tileerror', () => {
    if (loaded || ++failed < 2 || !map.hasLayer(tiles)) return;
    map.removeLayer(tiles);
    offline.addTo(map);
    showNotice(l10n.t('Tiles from "{0}" could not be loaded; showing the offline outlines.', name), 'info');
  });
}
