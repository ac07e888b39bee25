/**
 * A base layer that needs no network: land and country borders from Natural Earth (the
 * `world-atlas` package, 1:110m), bundled into the script and drawn on the footprint canvas.
 * Coarse at street level, but it shows where a footprint is when tiles cannot load.
 */
import * as L from 'leaflet';
import * as l10n from '@vscode/l10n';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { FootprintLayer, type FootprintInput } from './footprintLayer';

/** The base layer's name in the layer control (asked for after the page's bundle is loaded). */
export function offlineName(): string {
  return l10n.t('Offline outlines (Natural Earth)');
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function offlineStyle() {
  return {
    color: cssVar('--eo-coast', '#6e7681'),
    fillColor: cssVar('--eo-land', '#2d2d30'),
    fillOpacity: 1,
    weight: 0.8,
    pointRadius: 0,
    selectedColor: cssVar('--eo-coast', '#6e7681'),
  };
}

export function createOfflineBasemap(): L.Layer & { restyle(): void } {
  const layer = new FootprintLayer<null>(offlineStyle(), 'eoOffline');
  layer.options.attribution = l10n.t('Outlines: Natural Earth');
  const restyle = () => layer.setStyle(offlineStyle());
  // `outlines.js` (loaded first by the page) sets this; without it the layer is just empty.
  const topo = (window as unknown as { eoWorldAtlas?: Topology<{ countries: GeometryCollection; land: GeometryCollection }> }).eoWorldAtlas;
  if (!topo?.objects?.land) return Object.assign(layer, { restyle });
  const land = feature(topo, topo.objects.land);
  const borders = mesh(topo, topo.objects.countries, (a, b) => a !== b);
  const inputs: FootprintInput<null>[] = [];
  const landFeatures = 'features' in land ? land.features : [land];
  landFeatures.forEach((f, i) => inputs.push({ id: `land${i}`, geometry: f.geometry, data: null, raw: true }));
  inputs.push({ id: 'borders', geometry: borders, data: null, raw: true });
  layer.setItems(inputs);
  return Object.assign(layer, { restyle });
}

/** The pane under the tiles' overlays where the offline outlines live. */
export function addOfflinePane(map: L.Map): void {
  const pane = map.createPane('eoOffline');
  pane.style.zIndex = '150';
  pane.style.pointerEvents = 'none';
}
