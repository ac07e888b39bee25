import type { InputDefinition, InputValue } from '../../api/records';
import { missingBands, requiredBands } from './bands';
import type { InputChoice } from './choices';
import { choiceKindsFor, isRequired } from './choices';
import { checkVectorGeoJson, touchesAoi } from './geojson';
import { stacItemBands, stacItemFootprint } from './stacItem';
import { defaultValueType, parseScalar, scalarKindOf } from './scalars';

export type BuildResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const refuse = (def: InputDefinition, why: string): { ok: false; reason: string } => ({
  ok: false,
  reason: `Input "${def.name}": ${why}`,
});

/** Rule 1 and rule 6: a deep copy of the definition, with `type` always set. */
function copyDefinition(def: InputDefinition): InputValue {
  const copy = structuredClone(def) as InputValue;
  if (typeof copy.type !== 'string' || copy.type === '') copy.type = defaultValueType(def.format);
  return copy;
}

function describeChoice(choice: InputChoice): string {
  switch (choice.kind) {
    case 'asset':
      return 'an AOI asset';
    case 'stac-item':
      return 'a STAC item';
    case 'insight-output':
      return "an insight's output";
    case 'aoi-geometry':
      return 'the AOI geometry';
    case 'geojson':
      return 'a GeoJSON file';
    case 'text':
      return 'a typed value';
    case 'skip':
      return 'nothing (skip)';
  }
}

/**
 * Turns one definition and the person's choice into an input value, following the rules of
 * docs/service-interface.md ("Blocks and insights"), or refuses with a reason a person can act on.
 * `undefined` as the value means the (optional) input is left out.
 */
export function buildInputValue(def: InputDefinition, choice: InputChoice): BuildResult<InputValue | undefined> {
  const allowed = choiceKindsFor(def.format, isRequired(def));
  if (!allowed.includes(choice.kind)) {
    if (choice.kind === 'skip') return refuse(def, 'it is required and cannot be skipped');
    if (allowed.length === 0 || (allowed.length === 1 && allowed[0] === 'skip')) {
      return refuse(def, `its format "${def.format}" is not one the builder knows (raster, vector, date, number, string, boolean)`);
    }
    return refuse(def, `a ${def.format} input cannot take ${describeChoice(choice)}`);
  }

  switch (choice.kind) {
    case 'skip':
      return { ok: true, value: undefined };

    case 'asset': {
      // Rule 2.
      const { asset } = choice;
      const missing = missingBands(asset, requiredBands(def));
      if (missing.length > 0) {
        return refuse(
          def,
          `asset "${asset.name}" (${asset.id}) has bands [${asset.band_list.join(', ')}] but the input needs ` +
            `[${requiredBands(def).join(', ')}]; missing ${missing.join(', ')}`,
        );
      }
      if (!asset.path) return refuse(def, `asset "${asset.name}" (${asset.id}) has no path to reference as stac_url`);
      const v = copyDefinition(def);
      v.stac_url = asset.path;
      v.asset_source = { type: 'raw_mosaic', id: asset.id };
      return { ok: true, value: v };
    }

    case 'stac-item':
      return fromStacItem(def, choice);

    case 'insight-output':
      return fromInsightOutput(def, choice);

    case 'aoi-geometry':
    case 'geojson': {
      // Rule 5: the geometry travels as GeoJSON text; the asset gives the lineage.
      const { asset } = choice;
      if (!asset.path) return refuse(def, `asset "${asset.name}" (${asset.id}) has no path to reference as stac_url`);
      let text: string;
      if (choice.kind === 'aoi-geometry') {
        text = JSON.stringify(choice.aoi.geometry);
      } else {
        const check = checkVectorGeoJson(choice.geojson);
        if (!check.ok) return refuse(def, `${choice.label}: ${check.reason}`);
        if (choice.aoi && !touchesAoi(check.geometries, choice.aoi.geometry)) {
          return refuse(def, `${choice.label} does not touch AOI "${choice.aoi.name}"`);
        }
        text = JSON.stringify(choice.geojson);
      }
      const v = copyDefinition(def);
      v.value = text;
      v.stac_url = asset.path;
      v.asset_source = { type: 'raw_mosaic', id: asset.id };
      return { ok: true, value: v };
    }

    case 'text': {
      // Rule 4.
      const kind = scalarKindOf(def.format, def.type) ?? 'string';
      const parsed = parseScalar(kind, choice.text);
      if (!parsed.ok) return refuse(def, parsed.reason);
      if (isRequired(def) && parsed.value.trim() === '') return refuse(def, 'it is required and the value is empty');
      // A number input typed as a string in the spec still has to be a number.
      const typed = def.type === 'number' ? 'number' : def.type === 'boolean' ? 'boolean' : undefined;
      if (typed) {
        const again = parseScalar(typed, parsed.value);
        if (!again.ok) return refuse(def, again.reason);
      }
      const v = copyDefinition(def);
      v.value = parsed.value;
      return { ok: true, value: v };
    }
  }
}

/** Rule 2 with a STAC item in the asset's place: its STAC URL, its id as the raw mosaic. */
function fromStacItem(def: InputDefinition, choice: Extract<InputChoice, { kind: 'stac-item' }>): BuildResult<InputValue> {
  const { item, stacUrl } = choice;
  if (!/^https?:\/\//i.test(stacUrl)) return refuse(def, `STAC item ${item.id} has no http(s) STAC URL to reference`);
  const declared = stacItemBands(item);
  const required = requiredBands(def);
  if (declared.length > 0 && required.length > 0) {
    const missing = missingBands({ band_list: declared }, required);
    if (missing.length > 0) {
      return refuse(def, `STAC item ${item.id} has bands [${declared.join(', ')}] but the input needs [${required.join(', ')}]; missing ${missing.join(', ')}`);
    }
  }
  if (choice.aoi) {
    const footprint = stacItemFootprint(item);
    if (!footprint.ok) return refuse(def, footprint.reason);
    if (!touchesAoi(footprint.geometries, choice.aoi.geometry)) {
      return refuse(def, `STAC item ${item.id} does not touch AOI "${choice.aoi.name}"`);
    }
  }
  const v = copyDefinition(def);
  v.stac_url = stacUrl;
  v.asset_source = { type: 'raw_mosaic', id: item.id };
  return { ok: true, value: v };
}

/** Rule 3: an insight's raster output, its properties winning over the definition's. */
function fromInsightOutput(def: InputDefinition, choice: Extract<InputChoice, { kind: 'insight-output' }>): BuildResult<InputValue> {
  const { insight, outputName } = choice;
  const output = insight.output.find((o) => o.name === outputName);
  if (!output) {
    const names = insight.output.map((o) => o.name).join(', ') || 'none';
    return refuse(def, `insight "${insight.name}" (${insight.id}) has no output "${outputName}" (outputs: ${names})`);
  }
  if (output.format !== 'raster') {
    return refuse(def, `output "${output.name}" of insight "${insight.name}" is ${output.format}, not raster`);
  }
  if (typeof output.value !== 'string' || output.value === '') {
    return refuse(def, `output "${output.name}" of insight "${insight.name}" has no storage URL yet (status ${insight.status})`);
  }
  const v = copyDefinition(def);
  v.value = output.value;
  v.asset_source = { type: 'model_output', id: insight.id };
  // The output's properties win: they carry its visualisation and discretization.
  v.properties = { ...(v.properties ?? {}), ...structuredClone(output.properties ?? {}) };
  return { ok: true, value: v };
}
