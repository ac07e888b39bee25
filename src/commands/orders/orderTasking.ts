/**
 * Order tasking (new captures): from an AOI, or from a GeoJSON file open in the editor (a
 * FeatureCollection of Polygon features; anything else is refused with the reason and the
 * offending feature's index) → dates, recurrence, occurrences, bandset, cloud cover,
 * off-nadir, delivery speed, delivery → dry run → priced summary → Confirm.
 */
import vscode = require('vscode');
import type { Aoi, Bandset, FeatureCollection, OrderItemRequest, OrderRecord, Polygon, Project, Store } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput, outcome, type Step } from '../../ui/multiStep';
import { showError } from '../../ui/showError';
import { usecaseOf } from './usecase';
import { clientFor, usecaseStep, emptyOrderEntries, loadProjects, pathStep, projectStep, requireNonEmpty, storeStep, textStep, type OrderEntries } from './common';
import { checkDateRange, checkInteger, parseOrderDate } from './orderDates';
import { collectionOfPolygon, orderGeometryFromText } from './orderGeometry';
import { priceAndPlace } from './placeOrder';

export const RECURRENCES = ['ONCE', 'WEEKLY', 'MONTHLY'] as const;
export const DELIVERY_SPEEDS = ['STANDARD', 'PRIORITY', 'RUSH'] as const;

export interface TaskingState extends OrderEntries {
  start: string;
  end: string;
  recurrence: string;
  occurrences: string;
  bandsetId: string;
  bandsetLabel: string;
  cloudCover: string;
  offNadir: string;
  speed: string;
}

interface GeometrySource {
  geometry: FeatureCollection<Polygon>;
  /** What the order is for, e.g. the AOI's or the file's name. */
  label: string;
  projectId?: string;
}

function isAoi(v: unknown): v is Aoi {
  return typeof v === 'object' && v !== null && typeof (v as Aoi).aoi_id === 'string' && typeof (v as Aoi).geometry === 'object';
}

/**
 * Argument contract of `eoImagery.orderTasking`: an AOI row (`{kind: 'aoi', record}`), an
 * `Aoi` record, a `vscode.Uri` of a GeoJSON file, or nothing (the GeoJSON in the active editor).
 */
async function geometrySource(services: CommandServices, arg: unknown): Promise<GeometrySource | undefined> {
  const record = typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'aoi' ? (arg as { record?: unknown }).record : arg;
  if (isAoi(record)) {
    return { geometry: collectionOfPolygon(record.geometry, { aoi_id: record.aoi_id }), label: record.name, projectId: record.project_id };
  }
  let doc: vscode.TextDocument | undefined;
  if (arg instanceof vscode.Uri) doc = await vscode.workspace.openTextDocument(arg);
  else doc = vscode.window.activeTextEditor?.document;
  if (!doc) {
    await services.ui.message('error', 'Open a GeoJSON file (a FeatureCollection of Polygon features) or run this from an AOI in the Projects view.', {});
    return undefined;
  }
  const name = doc.uri.path.split('/').pop() ?? 'GeoJSON';
  const parsed = orderGeometryFromText(doc.getText());
  if (!parsed.ok) {
    const where = parsed.featureIndex !== undefined ? ` (features[${parsed.featureIndex}])` : '';
    await services.ui.message('error', `${name} cannot be ordered${where}: ${parsed.reason}`, {});
    return undefined;
  }
  return { geometry: parsed.collection, label: name.replace(/\.(geo)?json$/i, '') };
}

/** Resolves with the placed order, or undefined when nothing was placed. */
export async function orderTasking(services: CommandServices, arg?: unknown): Promise<OrderRecord | undefined> {
  const action = 'Order tasking';
  const source = await geometrySource(services, arg);
  if (!source) return undefined;
  const client = await clientFor(services, action);
  if (!client) return undefined;

  const today = Date.now();
  const day = 86_400_000;
  const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  const state: TaskingState = {
    ...emptyOrderEntries(`Tasking ${source.label}`),
    start: isoDay(today + day),
    end: isoDay(today + 15 * day),
    recurrence: 'ONCE',
    occurrences: '1',
    bandsetId: '',
    bandsetLabel: '',
    cloudCover: '20',
    offNadir: '30',
    speed: 'STANDARD',
  };
  let projects: Promise<Project[]> | undefined;
  let stores: Promise<Store[]> | undefined;
  let bandsets: Promise<Bandset[]> | undefined;
  const project = projectStep<TaskingState>(() => (projects ??= loadProjects(client)));
  if (source.projectId) {
    state.projectId = source.projectId;
    state.projectLabel = source.projectId;
  }
  const steps: Step<TaskingState>[] = [
    ...(source.projectId ? [] : [project]),
    textStep('Name', 'Name of the order item', (s) => s.name, (s, v) => (s.name = v), requireNonEmpty('a name')),
    usecaseStep(),
    textStep('Start date', 'First day of the capture window (YYYY-MM-DD, UTC)', (s) => s.start, (s, v) => (s.start = v), (v) => {
      const r = parseOrderDate(v);
      return r.ok ? undefined : r.reason;
    }),
    {
      name: 'End date',
      describe: (s) => s.end,
      async ask(s, ui) {
        const answer = await ui.input({ prompt: `Last day of the capture window (after ${s.start})`, value: s.end, validate: (v) => checkDateRange(s.start, v) });
        return outcome(answer, (v) => (s.end = v.trim()));
      },
    },
    {
      name: 'Recurrence',
      describe: (s) => s.recurrence,
      async ask(s, ui) {
        const answer = await ui.pick(RECURRENCES.map((r) => ({ label: r })), { placeHolder: 'How often to capture', activeLabel: s.recurrence });
        return outcome(answer, (i) => {
          s.recurrence = i.label;
          if (i.label === 'ONCE') s.occurrences = '1';
        });
      },
    },
    {
      name: 'Occurrences',
      describe: (s) => s.occurrences,
      when: (s) => s.recurrence !== 'ONCE',
      async ask(s, ui) {
        const answer = await ui.input({ prompt: 'Number of captures (1–366)', value: s.occurrences === '1' ? '2' : s.occurrences, validate: (v) => checkInteger(v, 1, 366, 'The number of occurrences') });
        return outcome(answer, (v) => (s.occurrences = v.trim()));
      },
    },
    {
      name: 'Bandset',
      describe: (s) => s.bandsetLabel,
      async ask(s, ui) {
        const list = await (bandsets ??= client.bandsets.list());
        const items = list.map((b) => ({ label: b.name, description: b.id, detail: `${b.bands.map((x) => x.name).join(', ')}${b.description ? ` — ${b.description}` : ''}`, bandset: b }));
        const answer = await ui.pick(items, { placeHolder: 'Bands to capture', activeLabel: s.bandsetLabel });
        return outcome(answer, (i) => {
          s.bandsetId = i.bandset.id;
          s.bandsetLabel = i.label;
        });
      },
    },
    textStep('Cloud cover', 'Maximum cloud cover, % (0–100)', (s) => s.cloudCover, (s, v) => (s.cloudCover = v), (v) => checkInteger(v, 0, 100, 'Cloud cover')),
    textStep('Off-nadir', 'Maximum off-nadir angle, degrees (0–60)', (s) => s.offNadir, (s, v) => (s.offNadir = v), (v) => checkInteger(v, 0, 60, 'The off-nadir angle')),
    {
      name: 'Delivery speed',
      describe: (s) => s.speed,
      async ask(s, ui) {
        const answer = await ui.pick(DELIVERY_SPEEDS.map((r) => ({ label: r })), { placeHolder: 'Delivery speed (faster costs more)', activeLabel: s.speed });
        return outcome(answer, (i) => (s.speed = i.label));
      },
    },
    storeStep<TaskingState>(() => (stores ??= client.stores.list()), true),
    pathStep<TaskingState>(),
  ];
  // The AOI's project is preset; it stays editable after a refusal.
  const editable = source.projectId ? [project, ...steps] : steps;
  const wizard = new MultiStepInput(services.ui, `Order tasking: ${source.label}`, steps, state);
  const fixer = new MultiStepInput(services.ui, `Order tasking: ${source.label}`, editable, state);
  try {
    if (!(await wizard.run())) return undefined;
  } catch (err) {
    await showError(services, action, err);
    return undefined;
  }
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
