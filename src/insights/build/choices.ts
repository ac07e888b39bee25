import type { Aoi, Asset, Insight } from '../../api/records';
import type { StacItemRef } from './stacItem';

/**
 * What the person chose for one input definition. The command gathers these through prompts;
 * the builder turns them into input values without any I/O (a GeoJSON file arrives parsed).
 */
export type InputChoice =
  /** Rule 2: a raster from an AOI asset (its bands must cover the input's). */
  | { kind: 'asset'; asset: Asset }
  /**
   * Rule 2, from the STAC panel's "Use as insight input": a raster from an archive STAC item,
   * referenced by its STAC URL; `aoi` (when given) must be touched by the item's footprint.
   */
  | { kind: 'stac-item'; item: StacItemRef; stacUrl: string; aoi?: Aoi }
  /** Rule 3: a raster from an earlier insight's output. */
  | { kind: 'insight-output'; insight: Insight; outputName: string }
  /** Rule 5: a vector from the AOI's own geometry, lineage from one of its assets. */
  | { kind: 'aoi-geometry'; aoi: Aoi; asset: Asset }
  /** Rule 5: a vector from a GeoJSON file; `aoi` (when given) must be touched by it. */
  | { kind: 'geojson'; geojson: unknown; label: string; asset: Asset; aoi?: Aoi }
  /** Rule 4: a date, number, string or boolean typed by the person. */
  | { kind: 'text'; text: string }
  /** An optional input left out of the file. */
  | { kind: 'skip' };

export type ChoiceKind = InputChoice['kind'];

/** The choice kinds that make sense for an input format; the command offers only these. */
export function choiceKindsFor(format: string, required: boolean): ChoiceKind[] {
  const skip: ChoiceKind[] = required ? [] : ['skip'];
  switch (format) {
    case 'raster':
      return ['asset', 'stac-item', 'insight-output', ...skip];
    case 'vector':
      return ['aoi-geometry', 'geojson', ...skip];
    case 'date':
    case 'number':
    case 'string':
    case 'boolean':
      return ['text', ...skip];
    default:
      return skip;
  }
}

/**
 * An input is required unless its definition says `required: false`: the interface does not
 * name the flag, and a service that omits it expects every input (the sandbox does too).
 */
export function isRequired(def: { required?: boolean }): boolean {
  return def.required !== false;
}
