/**
 * Where a search looks, as both searches send it: an AOI found by name (its polygon), a bbox
 * (a rectangle, running on past 180° when west is beyond east) or the given polygon; named in
 * words for the answer.
 */
import { l10n } from 'vscode';
import type { Aoi, EoClient } from '../api';
import { bboxRing } from '../geo/antimeridian';
import type { SearchParams } from '../panels/protocol';
import type { SearchWhere } from './archiveQuery';
import { findAoi, type Found } from './lookup';
import { quoted } from './text';

export interface SearchPlace {
  ring: [number, number][];
  shape: SearchParams['shape'];
  /** "AOI "Lake Mead"", "bbox [w, s, e, n]", "the given polygon". */
  label: string;
  /** The AOI, when the place was one. */
  aoi?: Aoi;
}

export async function searchPlace(client: EoClient, q: SearchWhere): Promise<Found<SearchPlace>> {
  if (q.aoi !== undefined) {
    const found = await findAoi(client, q.aoi);
    if (!found.ok) return found;
    const ring = found.value.geometry.coordinates[0].map(([x, y]) => [x, y] as [number, number]);
    return { ok: true, value: { ring, shape: 'polygon', label: l10n.t('AOI {0}', quoted(found.value.name)), aoi: found.value } };
  }
  if (q.bbox) {
    // West beyond east crosses the dateline: the ring runs on past 180°.
    return { ok: true, value: { ring: bboxRing(q.bbox), shape: 'rectangle', label: l10n.t('bbox [{0}]', q.bbox.join(', ')) } };
  }
  const ring = (q.geometry?.coordinates[0] ?? []).map(([x, y]) => [x, y] as [number, number]);
  return { ok: true, value: { ring, shape: 'polygon', label: l10n.t('the given polygon') } };
}
