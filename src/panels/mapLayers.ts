/**
 * What the map's footprint layers show, kept on the extension side: a page that loads again
 * (hidden and shown, or revived after a window reload) is sent it again, and commands ask what
 * a layer shows (the AOIs on the map are offered as a search area).
 */
import type { MapTarget } from './mapData';
import type { ToMapMessage } from './mapMessages';
import type { LayerKind, MapFeature, MapSource } from './protocol';

export class MapLayers {
  private readonly kept = new Map<LayerKind, { features: MapFeature[]; sources: MapSource[] }>();

  /** Keeps what `t` puts on its layer: `append` adds to it (the same id replaces), `replace` starts it over. */
  put(t: MapTarget, mode: 'replace' | 'append'): void {
    const prev = this.kept.get(t.layer) ?? { features: [], sources: [] };
    if (mode === 'replace') {
      this.kept.set(t.layer, { features: [...t.features], sources: [...t.sources] });
      return;
    }
    const ids = new Set(t.features.map((f) => f.id));
    this.kept.set(t.layer, { features: [...prev.features.filter((f) => !ids.has(f.id)), ...t.features], sources: [...prev.sources, ...t.sources] });
  }

  shown(layer: LayerKind): readonly MapFeature[] {
    return this.kept.get(layer)?.features ?? [];
  }

  /** What a page that loaded again is sent first: every layer, as it was, without moving the view. */
  again(): ToMapMessage[] {
    return [...this.kept].map(([layer, { features }]) => ({ type: 'layer', layer, features, mode: 'replace', fit: false }));
  }
}
