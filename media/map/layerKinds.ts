/**
 * The map's footprint layers, one per kind of record: their order (drawn bottom to top), their
 * names in the layer control and their theme colours.
 */
import * as l10n from '@vscode/l10n';
import type { LayerKind, MapFeature } from '../../src/panels/protocol';
import type { FootprintStyle } from '../shared/footprintLayer';

export const KINDS: LayerKind[] = ['aois', 'assets', 'orderItems', 'catalogs', 'archiveItems', 'insightOutputs', 'results'];

/**
 * The footprints' fills, under the imagery (whose pane is at 350) so that a fill never tints a
 * scene or a classified output; their outlines stay in the overlay pane, above it.
 */
export const FILL_PANE = 'eo-fills';

/** A footprint as its layer keeps it: without its geometry, which the layer holds packed. */
export type ShownFeature = Omit<MapFeature, 'geometry'>;

export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function layerStyle(kind: LayerKind): FootprintStyle {
  return {
    color: cssVar(`--eo-c-${kind}`, '#3794ff'),
    fillOpacity: kind === 'aois' ? 0.18 : 0.08,
    weight: kind === 'aois' ? 2 : 1,
    pointRadius: 4,
    selectedColor: cssVar('--eo-c-select', '#ffffff'),
  };
}

/** The layer control's name for a kind of record. */
export function layerTitle(kind: LayerKind): string {
  const titles: Record<LayerKind, string> = {
    aois: l10n.t('AOIs'),
    assets: l10n.t('Asset footprints'),
    orderItems: l10n.t('Order items'),
    catalogs: l10n.t('Catalog (fulfilled)'),
    archiveItems: l10n.t('Archive items'),
    insightOutputs: l10n.t('Insight outputs (vector)'),
    results: l10n.t('Search results'),
  };
  return titles[kind];
}
