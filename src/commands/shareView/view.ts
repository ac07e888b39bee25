/**
 * A shared map view: the place, what the layers show (records by kind and id) and each imagery
 * layer's source and look. It travels as a `vscode://` link or a `*.eoview.json` file, so
 * everything read back is checked here and refused in words: unknown layer kinds, bad numbers,
 * ids that are not ids, links for another extension or with extra parts. It never holds a
 * token, a file URL or a signed URL (imagery is named by its record, its URL is found again),
 * and nothing in it can change a setting or the service URL: `host` only says which service
 * the view is of, and the opener is refused when it is signed in to another.
 * Pure: no vscode, no I/O.
 */
import * as l10n from '@vscode/l10n';
import { isObj } from '../../api/shape';
import { parseJson } from '../../parse';
import type { ImageryRender, ImagerySource } from '../../panels/imagery/protocol';
import type { MapSource, MapViewState } from '../../panels/protocol';

export const VIEW_FORMAT = 1;
/** The longest link or file read (a view of a hundred layers fits easily). */
export const VIEW_MAX_CHARS = 64 * 1024;
const MAX_LAYERS = 200;
/** The most dates a shared time slider holds (two years of weekly scenes and more). */
const MAX_FRAMES = 200;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[A-Za-z0-9._:-]{1,200}$/;
const COLLECTION = /^[A-Za-z0-9._:-]{1,120}$/;

/** Imagery named by its record (a layer from a bare URL or a rendered picture is not shared). */
export type SharedImagerySource = Exclude<ImagerySource, { kind: 'url' } | { kind: 'visualizationPng' }>;
export type SharedRender = Extract<ImageryRender, { kind: 'rgb' } | { kind: 'index' }>;

export interface SharedImagery {
  title: string;
  source: SharedImagerySource;
  render?: SharedRender;
  opacity?: number;
  visible?: boolean;
}

/** The two imagery layers compared (indices into `imagery`), the divider's place and the mode. */
export interface SharedCompare {
  left: number;
  right: number;
  /** The divider, as a share of the map's width from the left (0 to 1). */
  position: number;
  mode: 'swipe' | 'flicker';
}

/** One date of the time slider, by record (its file URL is found again when the view opens). */
export interface SharedFrame {
  /** `YYYY-MM-DD` */
  date: string;
  source: Extract<SharedImagerySource, { kind: 'archiveItem' | 'asset' }>;
  cloudCover?: number;
}

/** The time slider: its title, its dates, and the date it shows. */
export interface SharedTimeline {
  title: string;
  date: string;
  frames: SharedFrame[];
}

export interface SharedView {
  eoView: typeof VIEW_FORMAT;
  /** The service host the records are on (never a URL with a path or a query, never a token). */
  host: string;
  center: { lon: number; lat: number };
  zoom: number;
  layers: MapSource[];
  imagery: SharedImagery[];
  compare?: SharedCompare;
  timeline?: SharedTimeline;
}

export type Checked<T> = { ok: T } | { error: string };

class Refused extends Error {}

/** `work()`, or undefined with its refusal said in `left`. */
function refusedInto<T>(left: string[], work: () => T): T | undefined {
  try {
    return work();
  } catch (e) {
    // Recovers from a part that cannot be taken: it is left out, and named.
    if (!(e instanceof Refused)) throw e;
    left.push(e.message);
    return undefined;
  }
}
const refuse = (text: string): never => {
  throw new Refused(text);
};

function num(v: unknown, what: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) refuse(l10n.t('{0} must be a number from {1} to {2}.', what, min, max));
  return v as number;
}

function id(v: unknown, what: string, pattern = ID): string {
  if (typeof v !== 'string' || !pattern.test(v)) refuse(l10n.t('{0} is not an id.', what));
  return v as string;
}

/** Control characters (a title is one line of words). */
function hasControl(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function text(v: unknown, what: string, max: number): string {
  if (typeof v !== 'string' || v.length > max || hasControl(v)) refuse(l10n.t('{0} must be text of at most {1} characters.', what, max));
  return v as string;
}

/** One record layer: the kinds the map draws, with the ids each needs; anything else refused. */
export function checkLayer(v: unknown, at: string): MapSource {
  if (!isObj(v)) return refuse(l10n.t('{0} is not a layer.', at));
  switch (v.kind) {
    case 'aoi':
    case 'orderItem':
    case 'catalog':
      return { kind: v.kind, id: id(v.id, at) };
    case 'aoiAssets':
      return { kind: 'aoiAssets', aoiId: id(v.aoiId, at) };
    case 'asset':
      return { kind: 'asset', aoiId: id(v.aoiId, at), id: id(v.id, at) };
    case 'archiveItem':
      return { kind: 'archiveItem', collection: id(v.collection, at, COLLECTION), id: id(v.id, at) };
    case 'insightOutput':
      return { kind: 'insightOutput', aoiId: id(v.aoiId, at), runId: id(v.runId, at), output: text(v.output, at, 200) };
    default:
      return refuse(l10n.t('{0} is of a kind this version does not know ({1}).', at, typeof v.kind === 'string' ? v.kind.slice(0, 40) : typeof v.kind));
  }
}

function checkSource(v: unknown, at: string): SharedImagerySource {
  if (!isObj(v)) return refuse(l10n.t('{0} names no imagery.', at));
  switch (v.kind) {
    case 'archiveItem':
      return { kind: 'archiveItem', collection: id(v.collection, at, COLLECTION), id: id(v.id, at), asset: text(v.asset, at, 80) };
    case 'asset':
      return { kind: 'asset', aoiId: id(v.aoiId, at), id: id(v.id, at) };
    case 'visualization':
      return { kind: 'visualization', aoiId: id(v.aoiId, at), id: id(v.id, at), assetId: id(v.assetId, at) };
    case 'insightOutput':
      return { kind: 'insightOutput', aoiId: id(v.aoiId, at), runId: id(v.runId, at), output: text(v.output, at, 200) };
    default:
      return refuse(l10n.t('{0} is imagery of a kind that cannot be shared ({1}).', at, typeof v.kind === 'string' ? v.kind.slice(0, 40) : typeof v.kind));
  }
}

function checkRender(v: unknown, at: string): SharedRender {
  if (!isObj(v)) return refuse(l10n.t('{0}: the look is not an object.', at));
  if (v.kind === 'rgb') {
    if (!Array.isArray(v.bands) || v.bands.length !== 3) refuse(l10n.t('{0}: a colour composite names three bands.', at));
    const bands = (v.bands as unknown[]).map((b) => text(b, at, 64)) as [string, string, string];
    const out: SharedRender = { kind: 'rgb', bands };
    if (v.stretch !== undefined) {
      if (!Array.isArray(v.stretch) || v.stretch.length !== 3) refuse(l10n.t('{0}: the stretch has one range per band.', at));
      out.stretch = (v.stretch as unknown[]).map((r) => {
        if (!Array.isArray(r) || r.length !== 2) refuse(l10n.t('{0}: a stretch range is two numbers.', at));
        return [num((r as unknown[])[0], at, -1e9, 1e9), num((r as unknown[])[1], at, -1e9, 1e9)] as [number, number];
      });
    }
    if (v.percentiles !== undefined) {
      const p = v.percentiles;
      if (!Array.isArray(p) || p.length !== 2) return refuse(l10n.t('{0}: the percentiles are two numbers.', at));
      out.percentiles = [num(p[0], at, 0, 100), num(p[1], at, 0, 100)];
    }
    // absent in views saved before it existed: those open with the linked stretch, today's default
    if (v.perBand !== undefined) {
      if (typeof v.perBand !== 'boolean') refuse(l10n.t('{0}: per band is true or false.', at));
      if (v.perBand) out.perBand = true;
    }
    return out;
  }
  if (v.kind === 'index') {
    if (!Array.isArray(v.rescale) || v.rescale.length !== 2) refuse(l10n.t('{0}: the range is two numbers.', at));
    const rescale = v.rescale as unknown[];
    const colormap = text(v.colormap, at, 40);
    if (!/^[A-Za-z0-9_]+$/.test(colormap)) refuse(l10n.t('{0}: {1} is not a colour map name.', at, colormap));
    return {
      kind: 'index',
      expression: text(v.expression, at, 500),
      rescale: [num(rescale[0], at, -1e9, 1e9), num(rescale[1], at, -1e9, 1e9)],
      colormap,
      legendTitle: text(v.legendTitle, at, 80),
    };
  }
  return refuse(l10n.t('{0}: a look of a kind that cannot be shared.', at));
}

function checkImagery(v: unknown, i: number): SharedImagery {
  const at = l10n.t('Imagery layer {0}', i + 1);
  if (!isObj(v)) return refuse(l10n.t('{0} is not a layer.', at));
  return {
    title: text(v.title, at, 200),
    source: checkSource(v.source, at),
    ...(v.render !== undefined ? { render: checkRender(v.render, at) } : {}),
    ...(v.opacity !== undefined ? { opacity: num(v.opacity, at, 0, 1) } : {}),
    ...(v.visible !== undefined ? { visible: v.visible === true } : {}),
  };
}

/** Parts a record of the view does not have are refused, not dropped: what is read is all there is. */
function onlyKeys(o: Record<string, unknown>, keys: readonly string[], at: string): void {
  const extra = Object.keys(o).filter((k) => !keys.includes(k));
  if (extra.length) refuse(l10n.t('{0} has parts this version does not know ({1}).', at, extra.slice(0, 3).join(', ').slice(0, 80)));
}

function checkCompare(v: unknown, imageryCount: number): SharedCompare {
  const at = l10n.t('The compare pair');
  if (!isObj(v)) return refuse(l10n.t('{0} is not an object.', at));
  onlyKeys(v, ['left', 'right', 'position', 'mode'], at);
  const side = (x: unknown): number => {
    if (!Number.isInteger(x) || (x as number) < 0 || (x as number) >= imageryCount)
      refuse(l10n.t('{0} must name two of the view’s imagery layers by their place in the list (1 to {1}).', at, imageryCount));
    return x as number;
  };
  const left = side(v.left);
  const right = side(v.right);
  if (left === right) refuse(l10n.t('{0} names the same layer twice.', at));
  if (v.mode !== 'swipe' && v.mode !== 'flicker') refuse(l10n.t('{0}: the mode is swipe or flicker.', at));
  return { left, right, position: num(v.position, l10n.t('The divider position'), 0, 1), mode: v.mode as SharedCompare['mode'] };
}

/** A calendar date `YYYY-MM-DD` (2026-02-30 is not one). */
function date(v: unknown, what: string): string {
  if (typeof v !== 'string' || !DATE.test(v) || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v)
    refuse(l10n.t('{0} is not a date (YYYY-MM-DD).', what));
  return v as string;
}

function checkTimeline(v: unknown): SharedTimeline {
  const at = l10n.t('The time slider');
  if (!isObj(v)) return refuse(l10n.t('{0} is not an object.', at));
  onlyKeys(v, ['title', 'date', 'frames'], at);
  if (!Array.isArray(v.frames) || v.frames.length === 0) return refuse(l10n.t('{0} has no dates.', at));
  if (v.frames.length > MAX_FRAMES) refuse(l10n.t('{0} has more than {1} dates.', at, MAX_FRAMES));
  const frames = (v.frames as unknown[]).map((f, i): SharedFrame => {
    const where = l10n.t('Date {0} of the time slider', i + 1);
    if (!isObj(f)) return refuse(l10n.t('{0} is not an object.', where));
    onlyKeys(f, ['date', 'source', 'cloudCover'], where);
    const source = checkSource(f.source, where);
    if (source.kind !== 'archiveItem' && source.kind !== 'asset')
      return refuse(l10n.t('{0} is imagery of a kind the time slider does not step through ({1}).', where, source.kind));
    return {
      date: date(f.date, where),
      source,
      ...(f.cloudCover !== undefined ? { cloudCover: num(f.cloudCover, where, 0, 100) } : {}),
    };
  });
  const shown = date(v.date, l10n.t('The time slider’s date'));
  if (!frames.some((f) => f.date === shown)) refuse(l10n.t('{0} shows {1}, which is not one of its dates.', at, shown));
  return { title: text(v.title, at, 200), date: shown, frames };
}

/** A host name as the view names its service: letters, digits, dots, dashes, an optional port. */
function checkHost(v: unknown): string {
  if (typeof v !== 'string' || !/^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/.test(v)) refuse(l10n.t('The view does not name its service by a host name.'));
  return (v as string).toLowerCase();
}

const KEYS = new Set(['$schema', 'eoView', 'host', 'center', 'zoom', 'layers', 'imagery', 'compare', 'timeline']);

/** Everything a view may hold, checked; the first problem, in words, otherwise. */
export function checkView(v: unknown): Checked<SharedView> {
  const refused: string[] = [];
  const checked = refusedInto(refused, () => checkedView(v));
  return checked ? { ok: checked } : { error: refused[0] };
}

function checkedView(v: unknown): SharedView {
  if (!isObj(v)) refuse(l10n.t('This is not a map view.'));
  const o = v as Record<string, unknown>;
  if (o.eoView !== VIEW_FORMAT) refuse(l10n.t('This is not a map view of a version this extension reads (eoView {0}).', String(o.eoView).slice(0, 20)));
  const extra = Object.keys(o).filter((k) => !KEYS.has(k));
  if (extra.length)
    refuse(l10n.t('The view has parts this version does not know ({0}): a view holds a place and layers, nothing else.', extra.slice(0, 3).join(', ')));
  if (!isObj(o.center)) refuse(l10n.t('The view has no centre.'));
  const c = o.center as Record<string, unknown>;
  const layers = o.layers ?? [];
  const imagery = o.imagery ?? [];
  if (!Array.isArray(layers) || !Array.isArray(imagery)) refuse(l10n.t('The layers of the view are not lists.'));
  if ((layers as unknown[]).length + (imagery as unknown[]).length > MAX_LAYERS) refuse(l10n.t('The view has more than {0} layers.', MAX_LAYERS));
  const checked: SharedView = {
    eoView: VIEW_FORMAT,
    host: checkHost(o.host),
    center: { lon: num(c.lon, l10n.t('The longitude'), -180, 180), lat: num(c.lat, l10n.t('The latitude'), -90, 90) },
    zoom: num(o.zoom, l10n.t('The zoom'), 0, 22),
    layers: (layers as unknown[]).map((l, i) => checkLayer(l, l10n.t('Layer {0}', i + 1))),
    imagery: (imagery as unknown[]).map((l, i) => checkImagery(l, i)),
  };
  if (o.compare !== undefined) checked.compare = checkCompare(o.compare, checked.imagery.length);
  if (o.timeline !== undefined) checked.timeline = checkTimeline(o.timeline);
  return checked;
}

/**
 * The view the map says it shows, as it may be shared: what cannot be shared (imagery from a
 * bare URL, the service's rendered pictures, an insight output's picture, any layer whose look
 * a view cannot hold) is left out and named in `left`, layer by layer; the rest is shared.
 */
export function viewFromMap(state: MapViewState, host: string): { view: SharedView; left: string[] } | { error: string } {
  const left: string[] = [];
  const layers: MapSource[] = [];
  for (const list of Object.values(state.sources ?? {})) {
    for (const s of Array.isArray(list) ? list : []) {
      const layer = refusedInto(left, () => checkLayer(s, l10n.t('A layer')));
      if (layer) layers.push(layer);
    }
  }
  const imagery: SharedImagery[] = [];
  /** The page's layer id → its place in the shared list (the compare pair names layers by id). */
  const place = new Map<unknown, number>();
  for (const [i, l] of state.imagery.entries()) {
    // each layer checked alone: one that cannot be shared is left out and named, the rest go
    const layer = refusedInto(left, () => imageryFromMap(l, i));
    if (!layer) continue;
    if (isObj(l) && l.id !== undefined) place.set(l.id, imagery.length);
    imagery.push(layer);
  }
  const [lat, lon] = state.center;
  const candidate = {
    eoView: VIEW_FORMAT,
    host,
    center: { lon: wrapLon(lon), lat: round6(lat) },
    zoom: Math.round(state.zoom * 100) / 100,
    layers: dedupe(layers),
    imagery,
    ...compareFromMap(state.compare, place, imagery.length, left),
    ...timelineFromMap(state.timeline, left),
  };
  const checked = checkView(JSON.parse(JSON.stringify(candidate)) as unknown);
  return 'ok' in checked ? { view: checked.ok, left } : { error: checked.error };
}

/** One imagery layer as the map reports it, as it may be shared; refused, with its title and why, otherwise. */
function imageryFromMap(l: MapViewState['imagery'][number], i: number): SharedImagery {
  const title = isObj(l) && typeof l.title === 'string' && l.title ? l.title.slice(0, 80) : '?';
  const source = isObj(l) && isObj(l.source) ? l.source : undefined;
  if (!source || source.kind === 'url' || source.kind === 'visualizationPng')
    refuse(l10n.t('{0} (drawn from a file address or the service’s own picture, which a link does not carry)', title));
  // opening a view draws insight outputs as shapes only (openView.ts): its picture is not carried
  if (source?.kind === 'insightOutput') refuse(l10n.t('{0} (an insight output’s picture, which a shared view does not draw again yet)', title));
  const { title: full, render, opacity, visible } = l;
  const checked: string[] = [];
  const layer = refusedInto(checked, () => checkImagery(JSON.parse(JSON.stringify({ title: full, source, render, opacity, visible })) as unknown, i));
  return layer ?? refuse(l10n.t('{0} ({1})', title, checked[0]));
}

/** The compare pair by place in the shared list; left out (and named) when a side cannot be shared. */
function compareFromMap(c: MapViewState['compare'], place: Map<unknown, number>, count: number, left: string[]): { compare?: SharedCompare } {
  if (!isObj(c)) return {};
  const a = place.get(c.left);
  const b = place.get(c.right);
  if (a === undefined || b === undefined) {
    left.push(l10n.t('the compare pair (one of its layers cannot be shared)'));
    return {};
  }
  const position = typeof c.position === 'number' ? Math.round(c.position * 1000) / 1000 : c.position;
  const compare = refusedInto(left, () => checkCompare({ left: a, right: b, position, mode: c.mode }, count));
  return compare ? { compare } : {};
}

/** The time slider's dates by record and the date it shows; left out (and named) when it cannot be shared. */
function timelineFromMap(t: MapViewState['timeline'], left: string[]): { timeline?: SharedTimeline } {
  if (!isObj(t)) return {};
  const frames = Array.isArray(t.frames) ? t.frames : [];
  const timeline = refusedInto(left, () =>
    checkTimeline({
      title: t.title,
      date: t.date,
      frames: frames.map((f) => (isObj(f) ? { date: f.date, source: f.source, ...(f.cloudCover !== undefined ? { cloudCover: f.cloudCover } : {}) } : f)),
    }),
  );
  return timeline ? { timeline } : {};
}

/** Into [-180, 180] (the map pans past the antimeridian), to 6 decimals (about 0.1 m). */
function wrapLon(lon: number): number {
  const wrapped = lon >= -180 && lon <= 180 ? lon : ((((lon + 180) % 360) + 360) % 360) - 180;
  return round6(wrapped);
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

function dedupe(layers: MapSource[]): MapSource[] {
  const seen = new Set<string>();
  return layers.filter((l) => {
    const k = JSON.stringify(l);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

// ------------------------------------------------------------------ link and file

/** The link's path; the view rides in the `v` query parameter as base64url JSON. */
export const VIEW_PATH = '/view';

/** What a link is read from (a `vscode.Uri` is one). */
export interface LinkParts {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
}

export function encodeLink(view: SharedView, extensionId: string, scheme = 'vscode'): string {
  const data = Buffer.from(JSON.stringify(view), 'utf8').toString('base64url');
  return `${scheme}://${extensionId}${VIEW_PATH}?v=${data}`;
}

/** A link's view, checked; a link for another extension, path or with other parts is refused. */
export function decodeLink(uri: LinkParts, extensionId: string): Checked<SharedView> {
  if (uri.authority.toLowerCase() !== extensionId.toLowerCase()) return { error: l10n.t('This link is not for EO Imagery ({0}).', uri.authority.slice(0, 80)) };
  if (uri.path !== VIEW_PATH) return { error: l10n.t('EO Imagery links open map views only; this one asks for {0}.', uri.path.slice(0, 80)) };
  if (uri.query.length > VIEW_MAX_CHARS) return { error: l10n.t('This link is longer than a map view can be.') };
  const params = new URLSearchParams(uri.query);
  const keys = [...new Set(params.keys())];
  if (keys.length !== 1 || keys[0] !== 'v' || params.getAll('v').length !== 1)
    return {
      error: l10n.t('This link has parts a map view does not have ({0}): only the view itself is read.', keys.filter((k) => k !== 'v').join(', ') || 'v'),
    };
  const data = params.get('v') ?? '';
  if (!/^[A-Za-z0-9_-]+$/.test(data)) return { error: l10n.t('This link is damaged: its view is not in the expected encoding.') };
  const json = parseJson(Buffer.from(data, 'base64url').toString('utf8'));
  return 'value' in json ? checkView(json.value) : { error: l10n.t('This link is damaged: its view cannot be read.') };
}

/** The file's text (its schema comes from the manifest's `jsonValidation`, by file name). */
export function viewFileText(view: SharedView): string {
  return `${JSON.stringify(view, null, 2)}\n`;
}

export function readViewFile(text: string): Checked<SharedView> {
  if (text.length > VIEW_MAX_CHARS) return { error: l10n.t('The file is larger than a map view can be.') };
  const json = parseJson(text);
  return 'value' in json ? checkView(json.value) : { error: l10n.t('The file is not JSON: {0}', json.reason) };
}
