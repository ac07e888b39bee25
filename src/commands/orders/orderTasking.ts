/**
 * Order tasking (new captures): from an AOI, or from a GeoJSON file open in the editor (a
 * FeatureCollection of Polygon features; anything else is refused with the reason and the
 * offending feature's index) → dates, recurrence, occurrences, bandset, cloud cover,
 * off-nadir, delivery speed, delivery → dry run → priced summary → Confirm.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient, FeatureCollection, OrderItemRequest, OrderRecord, Polygon, Project, Store } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput, type Step } from '../../ui/multiStep';
import type { InputOf } from '../args';
import { usecaseOf } from '../../orders/usecase';
import { usecaseStep, emptyOrderEntries, loadProjects, projectStep, storeStep, textStep, type OrderEntries } from './common';
import { deliveryPathStep } from './deliveryPathStep';
import { bandsetStep, type BandsetEntries } from './bandsetStep';
import { captureLimitSteps, captureWindowSteps, type CaptureLimits, type CaptureWindow } from './taskingSteps';
import { parseOrderDate } from '../../orders/orderDates';
import { checkName } from '../../orders/rules';
import { collectionOfPolygon, orderGeometryFromText } from '../../orders/orderGeometry';
import { priceAndPlace } from './placeOrder';
import { orReason } from '../../ui/showError';

/** What the command was run on (`READERS.orderTasking`). */
type TaskingSource = InputOf<'orderTasking'>;

export interface TaskingState extends OrderEntries, CaptureWindow, BandsetEntries, CaptureLimits {
  /** The AOI ordered over, when the order is over one (an order plan writes it beside its id). */
  aoiLabel?: string;
}

interface GeometrySource {
  geometry: FeatureCollection<Polygon>;
  /** What the order is for, e.g. the AOI's or the file's name. */
  label: string;
  projectId?: string;
  /** The AOI's satellite: the bandsets offered are that satellite's. */
  satelliteId?: string;
}

/**
 * What `eoImagery.orderTasking` was run on: an AOI (row or record), a GeoJSON file, or nothing
 * (the GeoJSON in the active editor).
 */
async function geometrySource(services: CommandServices, given: TaskingSource): Promise<GeometrySource | undefined> {
  if (given && 'aoi' in given) {
    const record = given.aoi;
    return {
      geometry: collectionOfPolygon(record.geometry, { aoi_id: record.aoi_id }),
      label: record.name,
      projectId: record.project_id,
      satelliteId: record.satellite_id,
    };
  }
  const doc = given ? await vscode.workspace.openTextDocument(given.file) : vscode.window.activeTextEditor?.document;
  if (!doc) {
    await services.ui.message(
      'error',
      l10n.t('Open a GeoJSON file (a FeatureCollection of Polygon features) or run this from an AOI in the Projects view.'),
      {},
    );
    return undefined;
  }
  const name = doc.uri.path.split('/').pop() ?? 'GeoJSON';
  const parsed = orderGeometryFromText(doc.getText());
  if (!parsed.ok) {
    const text =
      parsed.featureIndex !== undefined
        ? l10n.t('{0} cannot be ordered (features[{1}]): {2}', name, parsed.featureIndex, parsed.reason)
        : l10n.t('{0} cannot be ordered: {1}', name, parsed.reason);
    await services.ui.message('error', text, {});
    return undefined;
  }
  return { geometry: parsed.collection, label: name.replace(/\.(geo)?json$/i, '') };
}

/** The wizard's first entries (and the chat price tool's defaults): tomorrow for two weeks, once, 20 % cloud, 30° off-nadir. */
export function taskingDefaults(label: string, now = Date.now()): TaskingState {
  const day = 86_400_000;
  const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  return {
    ...emptyOrderEntries(l10n.t('Tasking {0}', label)),
    start: isoDay(now + day),
    end: isoDay(now + 15 * day),
    recurrence: 'ONCE',
    occurrences: '1',
    bandsetId: '',
    bandsetLabel: '',
    cloudCover: '20',
    offNadir: '30',
    speed: 'STANDARD',
  };
}

/** The project as the Projects view names it (a plan saved from the confirmation writes it beside the id); its id if it cannot be read. */
async function projectName(client: EoClient, id: string): Promise<string> {
  const named = await orReason(() => client.projects.get(id));
  return ('value' in named && (named.value.title || named.value.name)) || id;
}

/** Resolves with the placed order, or undefined when nothing was placed. */
export async function orderTasking(services: CommandServices, given: TaskingSource): Promise<OrderRecord | undefined> {
  const source = await geometrySource(services, given);
  if (!source) return undefined;
  const client = await services.connection.getClient();

  const state = taskingDefaults(source.label);
  if (given && 'aoi' in given) state.aoiLabel = source.label;
  let projects: Promise<Project[]> | undefined;
  let stores: Promise<Store[]> | undefined;
  const project = projectStep<TaskingState>(() => (projects ??= loadProjects(client)));
  if (source.projectId) {
    state.projectId = source.projectId;
    state.projectLabel = await projectName(client, source.projectId);
  }
  const steps: Step<TaskingState>[] = [
    ...(source.projectId ? [] : [project]),
    textStep(
      l10n.t('Name'),
      l10n.t('Name of the order item'),
      (s) => s.name,
      (s, v) => (s.name = v),
      checkName,
    ),
    usecaseStep(),
    ...captureWindowSteps<TaskingState>(),
    bandsetStep<TaskingState>(services, client, source.satelliteId),
    ...captureLimitSteps<TaskingState>(),
    storeStep<TaskingState>(() => (stores ??= client.stores.list()), true),
    deliveryPathStep<TaskingState>(),
  ];
  // The AOI's project is preset; it stays editable after a refusal.
  const editable = source.projectId ? [project, ...steps] : steps;
  const title = l10n.t('Order tasking: {0}', source.label);
  const wizard = new MultiStepInput(services.ui, title, steps, state);
  const fixer = new MultiStepInput(services.ui, title, editable, state);
  if (!(await wizard.run())) return undefined;
  return priceAndPlace(services, client, fixer, (s) => [taskingItemRequest(s, source.geometry)]);
}

export function taskingItemRequest(s: TaskingState, geometry: FeatureCollection<Polygon>): OrderItemRequest {
  const start = parseOrderDate(s.start);
  const end = parseOrderDate(s.end);
  const req: OrderItemRequest = {
    project_id: s.projectId,
    name: s.name,
    usecase: usecaseOf(s.usecase),
    geometry,
    recurrence: s.recurrence,
    start_date: start.ok ? start.iso : s.start,
    end_date: end.ok ? end.iso : s.end,
    no_of_occurrences: s.recurrence === 'ONCE' ? 1 : Number(s.occurrences),
    bandset: { bandset_id: s.bandsetId },
    cloud_cover: Number(s.cloudCover),
    off_nadir: Number(s.offNadir),
    delivery_speed: s.speed,
  };
  if (s.storeId) req.cloud_delivery = { config: s.storeId, path: s.path };
  return req;
}
