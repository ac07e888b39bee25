/**
 * A tasking order (new captures) as the price tool reads it: over an AOI by name (its polygon,
 * project and satellite, as Order Tasking… run on the AOI) or a GeoJSON polygon, with the
 * wizard's entries (dates, recurrence, bandset, cloud and angle limits, speed), each defaulting
 * to what the wizard proposes (`taskingDefaults`), read into the request the wizard sends
 * (`taskingItemRequest`).
 */
import { l10n } from 'vscode';
import type { EoClient, FeatureCollection, OrderItemRequest, Polygon, Satellite } from '../api';
import { orderLabels } from '../commands/orders/placeOrder';
import type { RequestLabels } from '../commands/orders/orderSummary';
import { checkDateRange } from '../orders/orderDates';
import { collectionOfPolygon } from '../orders/orderGeometry';
import { taskingDefaults, taskingItemRequest, type TaskingState } from '../commands/orders/orderTasking';
import { bandsetChoice, chooseBandset } from '../commands/orders/bandsetStep';
import { DELIVERY_SPEEDS, LIMITS, RECURRENCES } from '../orders/rules';
import { usecaseOf } from '../orders/usecase';
import { aoiPolygonFromGeoJson } from '../geo/aoiGeometry';
import { Fields, type Read } from './input';
import { findAoi, findBandset, findProject, type Found } from './lookup';
import { quoted } from './text';

export interface TaskingOrderInput {
  aoi?: string;
  geometry?: Polygon;
  project?: string;
  name?: string;
  usecase?: string;
  start?: string;
  end?: string;
  recurrence?: (typeof RECURRENCES)[number];
  occurrences?: number;
  bandset?: string;
  cloudCover?: number;
  offNadir?: number;
  speed?: (typeof DELIVERY_SPEEDS)[number];
}

const whole = (f: Fields, name: string, n: number | undefined): number | undefined => {
  if (n !== undefined && !Number.isInteger(n)) f.problems.push(l10n.t('Field "{0}" must be a whole number.', name));
  return n;
};

export function readTaskingOrder(input: unknown): Read<TaskingOrderInput> {
  const f = new Fields(input);
  const aoi = f.string('aoi', false, 200);
  const rawGeometry = f.raw('geometry');
  let geometry: Polygon | undefined;
  if (rawGeometry !== undefined) {
    const g = aoiPolygonFromGeoJson(rawGeometry);
    if (g.ok) geometry = g.polygon;
    else f.problems.push(l10n.t('Field "geometry": {0}', g.reason));
  }
  if ((aoi === undefined) === (rawGeometry === undefined))
    f.problems.push(l10n.t('Give exactly one of "aoi" (an AOI name) or "geometry" (a GeoJSON polygon) for a tasking order.'));
  const project = f.string('project', false, 200);
  if (rawGeometry !== undefined && project === undefined)
    f.problems.push(l10n.t('Missing field "project": a tasking order over a polygon needs the project to bill.'));
  const start = f.date('start');
  const end = f.date('end');
  if (start && end) {
    const range = checkDateRange(start, end);
    if (range) f.problems.push(range);
  }
  const recurrence = f.oneOf('recurrence', RECURRENCES);
  const occurrences = whole(f, 'occurrences', f.number('occurrences', LIMITS.occurrences.min, LIMITS.occurrences.max));
  if (occurrences !== undefined && occurrences > 1 && (recurrence ?? 'ONCE') === 'ONCE') {
    f.problems.push(l10n.t('"occurrences" above 1 needs a "recurrence" other than "ONCE".'));
  }
  return f.done({
    aoi,
    geometry,
    project,
    name: f.string('name', false, 200),
    usecase: f.string('usecase', false, 200),
    start,
    end,
    recurrence,
    occurrences,
    bandset: f.string('bandset', false, 200),
    cloudCover: whole(f, 'cloudCover', f.number('cloudCover', LIMITS.cloudCover.min, LIMITS.cloudCover.max)),
    offNadir: whole(f, 'offNadir', f.number('offNadir', LIMITS.offNadir.min, LIMITS.offNadir.max)),
    speed: f.oneOf('speed', DELIVERY_SPEEDS),
  });
}

export interface TaskingOrder {
  state: TaskingState;
  build(s: TaskingState): OrderItemRequest[];
  labels(s: TaskingState): RequestLabels;
  /** What the order is over, in words. */
  place: string;
}

/** The wizard's entries filled from the input; a name that matches nothing is answered with the closest ones. */
export async function taskingOrderOf(client: EoClient, input: TaskingOrderInput): Promise<Found<TaskingOrder>> {
  let geometry: FeatureCollection<Polygon>;
  let label: string;
  let place: string;
  let projectWanted = input.project;
  let satelliteId: string | undefined;
  if (input.aoi !== undefined) {
    const aoi = await findAoi(client, input.aoi);
    if (!aoi.ok) return aoi;
    geometry = collectionOfPolygon(aoi.value.geometry, { aoi_id: aoi.value.aoi_id });
    label = aoi.value.name;
    place = l10n.t('AOI {0}', quoted(aoi.value.name));
    projectWanted ??= aoi.value.project_id;
    satelliteId = aoi.value.satellite_id;
  } else {
    geometry = collectionOfPolygon(input.geometry as Polygon);
    label = l10n.t('polygon');
    place = l10n.t('the given polygon');
  }
  const project = await findProject(client, projectWanted ?? '');
  if (!project.ok) return project;

  const state = taskingDefaults(label);
  state.projectId = project.value.id;
  state.projectLabel = project.value.title || project.value.name;
  if (input.name) state.name = input.name;
  state.usecase = usecaseOf(input.usecase);
  if (input.start) state.start = input.start;
  if (input.end) state.end = input.end;
  const range = checkDateRange(state.start, state.end);
  if (range) return { ok: false, reason: l10n.t('The capture window does not work: {0} Give "start" and "end".', range) };
  if (input.recurrence) state.recurrence = input.recurrence;
  state.occurrences = String(state.recurrence === 'ONCE' ? 1 : (input.occurrences ?? 2));
  if (input.cloudCover !== undefined) state.cloudCover = String(input.cloudCover);
  if (input.offNadir !== undefined) state.offNadir = String(input.offNadir);
  if (input.speed) state.speed = input.speed;

  const [list, sats] = await Promise.all([
    client.bandsets.list(),
    // Recovers as the wizard does: without the satellite list every bandset is offered.
    client.search.satellites().catch(() => [] as Satellite[]),
  ]);
  const { satellite, fitting, offered } = bandsetChoice(list, sats, satelliteId);
  let bandset = input.bandset !== undefined ? findBandset(list, input.bandset) : undefined;
  if (!bandset) {
    const only = fitting.length === 1 ? fitting[0] : list.length === 1 ? list[0] : undefined;
    if (!only) {
      const names = offered.slice(0, 20).map((b) => quoted(b.name));
      return {
        ok: false,
        reason: satellite
          ? l10n.t('Missing field "bandset": the bands to capture with {0}, one of {1}.', quoted(satellite.name), names.join(', '))
          : l10n.t('Missing field "bandset": the bands to capture, one of {0}.', names.join(', ')),
      };
    }
    bandset = { ok: true, value: only };
  }
  if (!bandset.ok) return bandset;
  chooseBandset(state, bandset.value, satellite, sats);
  return { ok: true, value: { state, build: (s) => [taskingItemRequest(s, geometry)], labels: orderLabels, place } };
}
