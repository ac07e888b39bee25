/**
 * Order tasking (new captures): from an AOI, or from a GeoJSON file open in the editor (a
 * FeatureCollection of Polygon features; anything else is refused with the reason and the
 * offending feature's index) → dates, recurrence, occurrences, bandset, cloud cover,
 * off-nadir, delivery speed, delivery → dry run → priced summary → Confirm.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Bandset, EoClient, FeatureCollection, OrderItemRequest, OrderRecord, Polygon, Project, Satellite, Store } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput, outcome, type Step } from '../../ui/multiStep';
import type { InputOf } from '../args';
import { enumLabel } from '../../format';
import { usecaseOf } from '../../orders/usecase';
import { usecaseStep, emptyOrderEntries, loadProjects, projectStep, storeStep, textStep, type OrderEntries } from './common';
import { deliveryPathStep } from './deliveryPathStep';
import { satellitesOf } from '../../orders/bandsetFit';
import { checkDateRange, parseOrderDate } from '../../orders/orderDates';
import { checkCloudCover, checkName, checkOccurrences, checkOffNadir, DELIVERY_SPEEDS, RECURRENCES } from '../../orders/rules';
import { collectionOfPolygon, orderGeometryFromText } from '../../orders/orderGeometry';
import { priceAndPlace } from './placeOrder';
import { orReason } from '../../ui/showError';

/** What the command was run on (`READERS.orderTasking`). */
type TaskingSource = InputOf<'orderTasking'>;

export interface TaskingState extends OrderEntries {
  start: string;
  end: string;
  recurrence: string;
  occurrences: string;
  bandsetId: string;
  bandsetLabel: string;
  /** The AOI ordered over, when the order is over one (an order plan writes it beside its id). */
  aoiLabel?: string;
  /** The satellite that captures, named in the priced summary (the AOI's, or the bandset's only one). */
  satelliteLabel?: string;
  cloudCover: string;
  offNadir: string;
  speed: string;
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

/**
 * The bandsets to offer: those that fit the AOI's satellite (`fitting`), or every one when
 * none does or there is no AOI (`offered`).
 */
export function bandsetChoice(
  list: readonly Bandset[],
  sats: readonly Satellite[],
  satelliteId: string | undefined,
): { satellite?: Satellite; fitting: Bandset[]; offered: Bandset[] } {
  const satellite = satelliteId ? sats.find((x) => x.id === satelliteId) : undefined;
  const fitting = satellite ? list.filter((b) => satellitesOf(b, [satellite]).length > 0) : [];
  return { satellite, fitting, offered: fitting.length ? fitting : [...list] };
}

/** Puts the chosen bandset in the entries, with the satellite that captures when it is only one. */
export function chooseBandset(s: TaskingState, bandset: Bandset, satellite: Satellite | undefined, sats: readonly Satellite[]): void {
  s.bandsetId = bandset.id;
  s.bandsetLabel = bandset.name;
  const capturing = satellite ? [satellite] : satellitesOf(bandset, sats);
  s.satelliteLabel = capturing.length === 1 ? capturing[0].name : undefined;
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
  let bandsets: Promise<Bandset[]> | undefined;
  // The satellite list names which satellite each bandset is for; without it every bandset is offered.
  let satellites: Promise<Satellite[]> | undefined;
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
    textStep(
      l10n.t('Start date'),
      l10n.t('First day of the capture window (YYYY-MM-DD, UTC)'),
      (s) => s.start,
      (s, v) => (s.start = v),
      (v) => {
        const r = parseOrderDate(v);
        return r.ok ? undefined : r.reason;
      },
    ),
    {
      name: l10n.t('End date'),
      describe: (s) => s.end,
      async ask(s, ui) {
        const answer = await ui.input({
          prompt: l10n.t('Last day of the capture window (after {0})', s.start),
          value: s.end,
          validate: (v) => checkDateRange(s.start, v),
        });
        return outcome(answer, (v) => (s.end = v.trim()));
      },
    },
    {
      name: l10n.t('Recurrence'),
      describe: (s) => enumLabel(s.recurrence),
      async ask(s, ui) {
        const answer = await ui.pick(
          RECURRENCES.map((r) => ({ label: enumLabel(r), value: r })),
          { placeHolder: l10n.t('How often to capture'), activeLabel: enumLabel(s.recurrence) },
        );
        return outcome(answer, (i) => {
          s.recurrence = i.value;
          if (i.value === 'ONCE') s.occurrences = '1';
        });
      },
    },
    {
      name: l10n.t('Occurrences'),
      describe: (s) => s.occurrences,
      when: (s) => s.recurrence !== 'ONCE',
      async ask(s, ui) {
        const answer = await ui.input({
          prompt: l10n.t('Number of captures (1–366)'),
          value: s.occurrences === '1' ? '2' : s.occurrences,
          validate: checkOccurrences,
        });
        return outcome(answer, (v) => (s.occurrences = v.trim()));
      },
    },
    {
      name: l10n.t('Bandset'),
      describe: (s) => s.bandsetLabel,
      async ask(s, ui) {
        const [list, sats] = await Promise.all([
          (bandsets ??= client.bandsets.list()),
          // Recovers from a satellite list that cannot be read: every bandset is offered instead.
          (satellites ??= client.search.satellites().catch((err: unknown) => {
            services.log.warn(`Order tasking: satellites not listed, every bandset offered: ${String(err)}`);
            return [] as Satellite[];
          })),
        ]);
        const { satellite, fitting, offered } = bandsetChoice(list, sats, source.satelliteId);
        const items = offered.map((b) => {
          const forSats = satellitesOf(b, sats)
            .map((x) => x.name)
            .join(', ');
          const bands = b.bands.map((x) => x.name).join(', ');
          return {
            label: b.name,
            description: forSats,
            detail: b.description ? l10n.t('Bands {0} — {1}', bands, b.description) : l10n.t('Bands {0}', bands),
            bandset: b,
          };
        });
        const satName = satellite?.name ?? source.satelliteId;
        const placeHolder = fitting.length
          ? l10n.t("Bands to capture with {0} (the AOI's satellite)", satellite!.name)
          : satName
            ? l10n.t("Bands to capture (no bandset is listed for {0}, the AOI's satellite: all are shown)", satName)
            : l10n.t('Bands to capture');
        const answer = await ui.pick(items, { placeHolder, activeLabel: s.bandsetLabel, matchOnDescription: true });
        return outcome(answer, (i) => chooseBandset(s, i.bandset, satellite, sats));
      },
    },
    textStep(
      l10n.t('Cloud cover'),
      l10n.t('Maximum cloud cover, % (0–100)'),
      (s) => s.cloudCover,
      (s, v) => (s.cloudCover = v),
      checkCloudCover,
    ),
    textStep(
      l10n.t('Off-nadir'),
      l10n.t('Maximum off-nadir angle, degrees (0–60)'),
      (s) => s.offNadir,
      (s, v) => (s.offNadir = v),
      checkOffNadir,
    ),
    {
      name: l10n.t('Delivery speed'),
      describe: (s) => enumLabel(s.speed),
      async ask(s, ui) {
        const answer = await ui.pick(
          DELIVERY_SPEEDS.map((r) => ({ label: enumLabel(r), value: r })),
          { placeHolder: l10n.t('Delivery speed (faster costs more)'), activeLabel: enumLabel(s.speed) },
        );
        return outcome(answer, (i) => (s.speed = i.value));
      },
    },
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
