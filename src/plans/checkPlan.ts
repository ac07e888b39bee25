/**
 * The checks of an order plan, each a diagnostic at the place in the file it is about: first
 * what the file alone says (its fields, the order rules of src/orders/rules.ts, a scene that
 * does not lie over its item's area, whether it was placed), then, when the service was asked
 * (`ServiceFacts`), ids it does not know, scenes no longer in its archive and names that
 * differ from the service's (with the fix that takes the service's name). Shared by the editor
 * and the check command. Pure: no vscode, no I/O.
 */
import * as l10n from '@vscode/l10n';
import type { Node } from 'jsonc-parser';
import { bboxPolygon, geometryBbox, bboxesIntersect, type BBox } from '../geo/bbox';
import { geometriesIntersect } from '../geo/intersects';
import { jsonc } from '../insights/jsonc';
import { parseInsight as parseJsonc } from '../insights/validate/validate';
import { checkDateRange } from '../orders/orderDates';
import { checkOrderItem, RECURRENCES } from '../orders/rules';
import { placementOf, requestOf, type OrderPlan, type PlanItem, type PlanScene, type Ref } from './planFile';

export type Severity = 'error' | 'warning' | 'info';

export interface PlanEdit {
  offset: number;
  length: number;
  content: string;
}

export interface PlanDiagnostic {
  code: string;
  severity: Severity;
  offset: number;
  length: number;
  message: string;
  fix?: { title: string; edits: PlanEdit[] };
}

/** What the signed-in service says about the ids a plan names: id → the service's name. */
export interface ServiceFacts {
  projects?: ReadonlyMap<string, string>;
  aois?: ReadonlyMap<string, string>;
  stores?: ReadonlyMap<string, string>;
  bandsets?: ReadonlyMap<string, string>;
  /** The plan's scene ids the archive still holds. */
  scenes?: ReadonlySet<string>;
}

export interface CheckedPlan {
  /** The plan, when its fields have the types they must (the checks after those ran). */
  plan?: OrderPlan;
  diagnostics: PlanDiagnostic[];
}

type Path = (string | number)[];
type Kind = 'string' | 'number' | 'object' | 'array';

/**
 * Reads the file's values from the parsed value (JSON.parse when the text is plain JSON,
 * jsonc-parser's when it has comments or trailing commas), and finds the place of a problem
 * in the parse tree, built only when there is a problem to place: a 1,000-item plan without
 * problems is checked at about the cost of parsing it.
 */
class Reader {
  readonly out: PlanDiagnostic[] = [];
  private tree: Node | undefined;
  constructor(
    private readonly text: string,
    readonly value: unknown,
    tree?: Node,
  ) {
    this.tree = tree;
  }

  private get root(): Node {
    return (this.tree ??= parseJsonc(this.text).root!);
  }

  node(path: Path): Node | undefined {
    return jsonc().findNodeAtLocation(this.root, path);
  }

  /** The node at `path`, or the nearest one above it that exists. */
  anchor(path: Path): { offset: number; length: number } {
    for (let p = path; ; p = p.slice(0, -1)) {
      const n = this.node(p);
      if (n) {
        // A value: underline it; an object or array above the place: its first character.
        return n.type === 'object' || n.type === 'array' ? { offset: n.offset, length: p.length === path.length ? n.length : 1 } : n;
      }
      if (!p.length) return { offset: this.root.offset, length: 1 };
    }
  }

  add(code: string, severity: Severity, path: Path, message: string, fix?: PlanDiagnostic['fix']): void {
    const { offset, length } = this.anchor(path);
    this.out.push({ code, severity, offset, length, message, fix });
  }

  /** The value at `path` when it has the type; a diagnostic when it is missing (and `required`) or of another type. */
  get(path: Path, kind: Kind, required: boolean): unknown {
    let v: unknown = this.value;
    for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[key] : undefined;
    const name = String(path[path.length - 1]);
    if (v === undefined || v === null) {
      if (required) this.add('missing-field', 'error', path, l10n.t('"{0}" is missing.', name));
      return undefined;
    }
    const type = Array.isArray(v) ? 'array' : typeof v;
    if (type !== kind) {
      this.add('wrong-type', 'error', path, l10n.t('"{0}" must be {1}.', name, KIND_WORDS()[kind]));
      return undefined;
    }
    return v;
  }
}

const KIND_WORDS = (): Record<Kind, string> => ({
  string: l10n.t('a string'),
  number: l10n.t('a number'),
  object: l10n.t('an object'),
  array: l10n.t('an array'),
});

function readRef(r: Reader, path: Path, required: boolean): Ref | undefined {
  if (r.get(path, 'object', required) === undefined) return undefined;
  const id = r.get([...path, 'id'], 'string', true) as string | undefined;
  const name = r.get([...path, 'name'], 'string', false) as string | undefined;
  if (id !== undefined && id.trim() === '') r.add('missing-field', 'error', [...path, 'id'], l10n.t('"id" is empty.'));
  return id ? { id, name } : undefined;
}

function readGeometry(r: Reader, path: Path): PlanItem['geometry'] | 'bad' {
  const g = r.get(path, 'object', true) as { type?: unknown; coordinates?: unknown } | undefined;
  if (!g) return 'bad';
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') {
    r.add('wrong-type', 'error', [...path, 'type'], l10n.t('"geometry" must be a GeoJSON Polygon or MultiPolygon.'));
    return 'bad';
  }
  if (!Array.isArray(g.coordinates)) {
    r.add('wrong-type', 'error', [...path, 'coordinates'], l10n.t('"coordinates" must be an array.'));
    return 'bad';
  }
  return g as PlanItem['geometry'];
}

function readItem(r: Reader, i: number): PlanItem | undefined {
  const at: Path = ['items', i];
  if (r.get(at, 'object', true) === undefined) return undefined;
  const kind = r.get([...at, 'kind'], 'string', true);
  const name = r.get([...at, 'name'], 'string', true) as string | undefined;
  const aoi = readRef(r, [...at, 'aoi'], false);
  const geometry = readGeometry(r, [...at, 'geometry']);
  if (kind === 'archive') {
    const list = r.get([...at, 'scenes'], 'array', true) as unknown[] | undefined;
    const scenes: PlanScene[] = [];
    let bad = !list;
    (list ?? []).forEach((_, k) => {
      const p: Path = [...at, 'scenes', k];
      if (r.get(p, 'object', true) === undefined) return void (bad = true);
      const id = r.get([...p, 'id'], 'string', true) as string | undefined;
      const collection = (r.get([...p, 'collection'], 'string', false) as string | undefined) ?? '';
      const bbox = r.get([...p, 'bbox'], 'array', false) as number[] | undefined;
      const box = bbox && bbox.length === 4 && bbox.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (bbox as BBox) : undefined;
      if (bbox && !box) r.add('wrong-type', 'error', [...p, 'bbox'], l10n.t('"bbox" must be [west, south, east, north] in degrees.'));
      if (id === undefined) bad = true;
      else scenes.push({ collection, id, title: r.get([...p, 'title'], 'string', false) as string | undefined, bbox: box });
    });
    return bad || name === undefined || geometry === 'bad' ? undefined : { kind, name, aoi, geometry, scenes };
  }
  if (kind === 'tasking') {
    const start = r.get([...at, 'start'], 'string', true) as string | undefined;
    const end = r.get([...at, 'end'], 'string', true) as string | undefined;
    const recurrence = r.get([...at, 'recurrence'], 'string', true) as string | undefined;
    if (recurrence !== undefined && !(RECURRENCES as readonly string[]).includes(recurrence)) {
      r.add('unknown-value', 'error', [...at, 'recurrence'], l10n.t('"recurrence" must be one of {0}.', RECURRENCES.join(', ')));
    }
    const occurrences = r.get([...at, 'occurrences'], 'number', true) as number | undefined;
    const bandset = readRef(r, [...at, 'bandset'], true);
    const cloudCover = r.get([...at, 'cloudCover'], 'number', false) as number | undefined;
    const offNadir = r.get([...at, 'offNadir'], 'number', false) as number | undefined;
    const speed = r.get([...at, 'speed'], 'string', false) as string | undefined;
    if ([name, start, end, recurrence, occurrences, bandset].includes(undefined) || geometry === 'bad') return undefined;
    return {
      kind,
      name: name!,
      aoi,
      geometry,
      start: start!,
      end: end!,
      recurrence: recurrence!,
      occurrences: occurrences!,
      bandset: bandset!,
      cloudCover,
      offNadir,
      speed,
    };
  }
  if (kind !== undefined)
    r.add('unknown-value', 'error', [...at, 'kind'], l10n.t('"kind" must be "archive" (scenes from the archive) or "tasking" (new captures).'));
  return undefined;
}

/** Where in the file each field of an item request is written. */
function planPath(i: number, field: string): Path {
  const item: Path = ['items', i];
  const scene = /^item_ids\[(\d+)\]$/.exec(field);
  if (scene) return [...item, 'scenes', Number(scene[1])];
  const feature = /^geometry\.features\[(\d+)\]$/.exec(field);
  if (feature) return [...item, 'geometry'];
  const fields: Record<string, Path> = {
    name: [...item, 'name'],
    usecase: ['usecase'],
    geometry: [...item, 'geometry'],
    item_ids: [...item, 'scenes'],
    start_date: [...item, 'start'],
    end_date: [...item, 'end'],
    no_of_occurrences: [...item, 'occurrences'],
    bandset: [...item, 'bandset'],
    cloud_cover: [...item, 'cloudCover'],
    off_nadir: [...item, 'offNadir'],
    delivery_speed: [...item, 'speed'],
    'cloud_delivery.config': ['delivery', 'store'],
    'cloud_delivery.path': ['delivery', 'path'],
  };
  return fields[field] ?? item;
}

/** Whether a vertex of the geometry lies in the box: then the two surely meet. */
function vertexInBox(g: NonNullable<PlanItem['geometry']>, [w, so, e, n]: BBox): boolean {
  const rings = g.type === 'Polygon' ? g.coordinates : g.coordinates.flat();
  return rings.some((ring) => ring.some(([x, y]) => x >= w && x <= e && y >= so && y <= n));
}

/** A scene whose box misses every polygon of its item's area would be refused as not feasible. */
function checkScenesOverArea(r: Reader, plan: OrderPlan): void {
  plan.items.forEach((item, i) => {
    if (item.kind !== 'archive' || !item.geometry) return;
    let area: BBox;
    try {
      area = geometryBbox(item.geometry);
    } catch {
      // Recovers: a geometry the rules already refused has no box to test against.
      return;
    }
    item.scenes.forEach((s, k) => {
      // The box tests first: most scenes cover a corner of their area, and the exact test loads turf.
      if (!s.bbox || (bboxesIntersect(area, s.bbox) && (vertexInBox(item.geometry!, s.bbox) || geometriesIntersect(bboxPolygon(s.bbox), item.geometry!))))
        return;
      const where = item.aoi ? l10n.t('AOI {0}', JSON.stringify(item.aoi.name ?? item.aoi.id)) : l10n.t('the item\u2019s geometry');
      r.add(
        'scene-outside-area',
        'error',
        ['items', i, 'scenes', k],
        l10n.t('Scene {0} does not lie over {1}: the service would refuse it as not feasible.', s.id, where),
      );
    });
  });
}

function checkPlacement(r: Reader, plan: OrderPlan): void {
  const p = placementOf(plan);
  if (p.state === 'new') return;
  const when = p.placed.at.slice(0, 10);
  if (p.state === 'placed') {
    r.add('placed', 'info', ['placed'], l10n.t('This plan was placed as order {0} on {1}. Placing it again orders it a second time.', p.placed.order_id, when));
  } else {
    r.add(
      'changed-after-placed',
      'warning',
      ['placed'],
      l10n.t('This plan was changed after it was placed as order {0} on {1}: the order placed is not what the file says now.', p.placed.order_id, when),
    );
  }
}

function checkAgainstService(r: Reader, plan: OrderPlan, facts: ServiceFacts): void {
  const ref = (path: Path, value: Ref | undefined, known: ReadonlyMap<string, string> | undefined, what: string, code: string): void => {
    if (!value || !known) return;
    const name = known.get(value.id);
    if (name === undefined) return r.add(code, 'error', [...path, 'id'], l10n.t('The service has no {0} with id {1}.', what, value.id));
    if (value.name !== undefined && value.name !== name) {
      const node = r.node([...path, 'name']);
      r.add(
        'name-differs',
        'warning',
        [...path, 'name'],
        l10n.t('The service calls {0} {1} {2} now, not {3}.', what, value.id, JSON.stringify(name), JSON.stringify(value.name)),
        node
          ? {
              title: l10n.t('Use the service\u2019s name {0}', JSON.stringify(name)),
              edits: [{ offset: node.offset, length: node.length, content: JSON.stringify(name) }],
            }
          : undefined,
      );
    }
  };
  ref(['project'], plan.project, facts.projects, l10n.t('project'), 'unknown-project');
  if (plan.delivery) ref(['delivery', 'store'], plan.delivery.store, facts.stores, l10n.t('cloud store'), 'unknown-store');
  plan.items.forEach((item, i) => {
    ref(['items', i, 'aoi'], item.aoi, facts.aois, l10n.t('AOI'), 'unknown-aoi');
    if (item.kind === 'tasking') ref(['items', i, 'bandset'], item.bandset, facts.bandsets, l10n.t('bandset'), 'unknown-bandset');
    else if (facts.scenes) {
      item.scenes.forEach((s, k) => {
        if (!facts.scenes!.has(s.id)) r.add('scene-not-in-archive', 'error', ['items', i, 'scenes', k], l10n.t('Scene {0} is no longer in the archive.', s.id));
      });
    }
  });
}

/** Reads and checks a plan's text; `facts` adds the checks against the service. */
export function checkPlanText(text: string, facts?: ServiceFacts): CheckedPlan {
  let value: unknown;
  let tree: Node | undefined;
  try {
    // Plain JSON (what the writers write) parses natively; the tree waits for a problem to place.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // Recovers: comments, trailing commas or a syntax error being typed take jsonc-parser's path.
    const parsed = parseJsonc(text);
    if (parsed.tooDeep) {
      const d: PlanDiagnostic = {
        code: 'not-a-plan',
        severity: 'error',
        offset: parsed.tooDeep.offset,
        length: 1,
        message: l10n.t('The file nests too deep to be an order plan.'),
      };
      return { diagnostics: [d] };
    }
    // Syntax errors are VS Code's JSON support's to report (the check command reports them itself).
    if (!parsed.root) return { diagnostics: [] };
    tree = parsed.root;
    value = jsonc().getNodeValue(parsed.root);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const root = tree ?? parseJsonc(text).root;
    return {
      diagnostics: [
        {
          code: 'not-a-plan',
          severity: 'error',
          offset: root?.offset ?? 0,
          length: 1,
          message: l10n.t('An order plan holds one object: {project, items, …}.'),
        },
      ],
    };
  }
  const r = new Reader(text, value, tree);
  const project = readRef(r, ['project'], true);
  const name = r.get(['name'], 'string', false) as string | undefined;
  const usecase = r.get(['usecase'], 'string', false) as string | undefined;
  let delivery: OrderPlan['delivery'];
  let complete = project !== undefined;
  if (r.get(['delivery'], 'object', false) !== undefined) {
    const store = readRef(r, ['delivery', 'store'], true);
    const path = r.get(['delivery', 'path'], 'string', true) as string | undefined;
    if (store && path !== undefined) delivery = { store, path };
    else complete = false;
  }
  const list = r.get(['items'], 'array', true) as unknown[] | undefined;
  if (list && list.length === 0) r.add('no-items', 'error', ['items'], l10n.t('The plan orders nothing: add an archive or a tasking item.'));
  const items = (list ?? []).map((_, i) => readItem(r, i));
  complete &&= !!list && items.every((x) => x !== undefined);
  const placed = r.get(['placed'], 'object', false) as OrderPlan['placed'] | undefined;
  if (placed && (typeof placed.order_id !== 'string' || typeof placed.at !== 'string' || typeof placed.request !== 'string')) {
    r.add('wrong-type', 'error', ['placed'], l10n.t('"placed" is written by Place Order: it needs "order_id", "at" and "request".'));
  }
  if (!complete) return { diagnostics: r.out };

  const plan: OrderPlan = { name, project: project!, usecase, delivery, items: items as PlanItem[], placed };
  requestOf(plan).forEach((req, i) => {
    const item = plan.items[i];
    for (const p of checkOrderItem(req)) {
      // The rules read the request's ISO dates; the message quotes the dates as the file writes them.
      const message = p.field === 'end_date' && item.kind === 'tasking' ? (checkDateRange(item.start, item.end) ?? p.message) : p.message;
      r.add('order-rule', 'error', planPath(i, p.field), message);
    }
  });
  checkScenesOverArea(r, plan);
  if (placed && r.out.every((d) => d.code !== 'wrong-type')) checkPlacement(r, plan);
  if (facts) checkAgainstService(r, plan, facts);
  return { plan, diagnostics: r.out };
}
