/**
 * How STAC item properties are grouped and shown: by extension prefix, with units and
 * locale dates. Values become text (never markup); a DOI becomes an https link.
 */

export const GROUPS = ['core', 'eo', 'view', 'proj', 'sci', 'rd', 'others'] as const;
export type Group = (typeof GROUPS)[number];

export const GROUP_TITLES: Record<Group, string> = {
  core: 'Core',
  eo: 'Electro-optical (eo)',
  view: 'Viewing geometry (view)',
  proj: 'Projection (proj)',
  sci: 'Scientific (sci)',
  rd: 'Provider (rd)',
  others: 'Other',
};

const CORE_ORDER = ['title', 'description', 'datetime', 'startdatetime', 'start_datetime', 'end_datetime', 'created', 'updated',
  'platform', 'constellation', 'instruments', 'gsd', 'altitude', 'license'];

export function groupOf(key: string): Group {
  const i = key.indexOf(':');
  if (i < 0) return 'core';
  const prefix = key.slice(0, i);
  return (GROUPS as readonly string[]).includes(prefix) && prefix !== 'core' && prefix !== 'others' ? (prefix as Group) : 'others';
}

export function groupProperties(props: Record<string, unknown>): Map<Group, [string, unknown][]> {
  const out = new Map<Group, [string, unknown][]>();
  for (const g of GROUPS) out.set(g, []);
  for (const [k, v] of Object.entries(props)) out.get(groupOf(k))?.push([k, v]);
  const rank = (k: string) => {
    const i = CORE_ORDER.indexOf(k);
    return i < 0 ? CORE_ORDER.length : i;
  };
  for (const list of out.values()) list.sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
  return out;
}

export interface Shown {
  text: string;
  /** Shown on hover (e.g. the UTC form of a date). */
  title?: string;
  /** An https link for the value (DOI). */
  href?: string;
}

const ANGLE_KEYS = /^view:(off_nadir|incidence_angle|azimuth|sun_azimuth|sun_elevation|scene_center_lat|scene_center_lon)$/;
/**
 * Numbers that name something rather than count it (EPSG codes, orbits, tiles, ids): shown
 * as written, never with thousands separators ("32633", not "32,633").
 */
const IDENTIFIER_KEYS = /(^|[:_])(epsg|code|id|orbit|relative_orbit|absolute_orbit|datatake_id|tile|tile_id|zone|utm_zone|path|row|wrs_path|wrs_row|frame|track|number|version|revision)$|orbit|epsg/i;

/** Whether a numeric property is an identifier (shown verbatim) rather than a quantity. */
export function isIdentifierKey(key: string): boolean {
  return IDENTIFIER_KEYS.test(key);
}

const DATE_KEYS = /(^|:)(datetime|start_?datetime|end_?datetime|created|updated|published|expires)$/;

function num(n: number, digits = 2): string {
  return n.toLocaleString(undefined, { maximumFractionDigits: digits });
}

export function formatDate(value: string): Shown {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return { text: value };
  return {
    text: d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
    title: `${d.toISOString().replace('.000Z', 'Z')} (UTC)`,
  };
}

export function formatValue(key: string, value: unknown): Shown {
  if (value === null || value === undefined) return { text: '—' };
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (isIdentifierKey(key)) return { text: String(value) };
    if (key === 'gsd') return { text: `${num(value)} m` };
    // Orbit altitude is given in metres; kilometres are how people read it.
    if (key === 'altitude') return { text: `${num(value / 1000, 1)} km`, title: `${num(value)} m` };
    if (key === 'eo:cloud_cover' || key.endsWith('_percentage')) return { text: `${num(value)} %` };
    if (ANGLE_KEYS.test(key)) return { text: `${num(value, 4)}°` };
    return { text: num(value, 6) };
  }
  if (typeof value === 'string') {
    if (key === 'sci:doi') return { text: value, href: `https://doi.org/${encodeURI(value.replace(/^https?:\/\/(dx\.)?doi\.org\//, ''))}` };
    if (DATE_KEYS.test(key)) return formatDate(value);
    return { text: value };
  }
  if (typeof value === 'boolean') return { text: value ? 'yes' : 'no' };
  if (key === 'proj:shape' && Array.isArray(value) && value.length === 2) return { text: `${value[0]} × ${value[1]} px (rows × columns)` };
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return { text: value.map(String).join(', ') };
  return { text: JSON.stringify(value) };
}

/** A thumbnail the extension fetched and sent as a data URL; nothing else is shown as an image. */
export function isImageDataUrl(s: unknown): s is string {
  return typeof s === 'string' && /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(s);
}
