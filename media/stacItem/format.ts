/**
 * How STAC item properties are grouped and shown: by extension prefix, with units and
 * locale dates. Values become text (never markup); a DOI becomes an https link.
 */
import * as l10n from '@vscode/l10n';

export const GROUPS = ['core', 'eo', 'view', 'proj', 'sci', 'rd', 'others'] as const;
export type Group = (typeof GROUPS)[number];

/** A group's heading, translated when asked (not at import, which runs before the bundle loads). */
export function groupTitle(g: Group): string {
  switch (g) {
    case 'core':
      return l10n.t('Core');
    case 'eo':
      return l10n.t('Electro-optical (eo)');
    case 'view':
      return l10n.t('Viewing geometry (view)');
    case 'proj':
      return l10n.t('Projection (proj)');
    case 'sci':
      return l10n.t('Scientific (sci)');
    case 'rd':
      return l10n.t('Provider (rd)');
    case 'others':
      return l10n.t('Other');
  }
}

const CORE_ORDER = [
  'title',
  'description',
  'datetime',
  'startdatetime',
  'start_datetime',
  'end_datetime',
  'created',
  'updated',
  'platform',
  'constellation',
  'instruments',
  'gsd',
  'altitude',
  'license',
];

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
const IDENTIFIER_KEYS =
  /(^|[:_])(epsg|code|id|orbit|relative_orbit|absolute_orbit|datatake_id|tile|tile_id|zone|utm_zone|path|row|wrs_path|wrs_row|frame|track|number|version|revision)$|orbit|epsg/i;

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
  // the extension's one date format, with its zone (the sidebar and the map show the same)
  return {
    text: l10n.t('{0} UTC', d.toISOString().slice(0, 19).replace('T', ' ')),
    title: l10n.t('{0} in your time zone', d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })),
  };
}

export function formatValue(key: string, value: unknown): Shown {
  if (value === null || value === undefined) return { text: '—' };
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (isIdentifierKey(key)) return { text: String(value) };
    if (key === 'gsd') return { text: l10n.t('{0} m', num(value)) };
    // Orbit altitude is given in metres; kilometres are how people read it.
    if (key === 'altitude') return { text: l10n.t('{0} km', num(value / 1000, 1)), title: l10n.t('{0} m', num(value)) };
    if (key === 'eo:cloud_cover' || key.endsWith('_percentage')) return { text: `${num(value)} %` };
    if (ANGLE_KEYS.test(key)) return { text: `${num(value, 4)}°` };
    return { text: num(value, 6) };
  }
  if (typeof value === 'string') {
    if (key === 'sci:doi') return { text: value, href: `https://doi.org/${encodeURI(value.replace(/^https?:\/\/(dx\.)?doi\.org\//, ''))}` };
    if (DATE_KEYS.test(key)) return formatDate(value);
    return { text: value };
  }
  if (typeof value === 'boolean') return { text: value ? l10n.t('yes') : l10n.t('no') };
  if (key === 'proj:shape' && Array.isArray(value) && value.length === 2)
    return { text: l10n.t('{0} × {1} px (rows × columns)', String(value[0]), String(value[1])) };
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return { text: value.map(String).join(', ') };
  return { text: JSON.stringify(value) };
}

/** A thumbnail the extension fetched and sent as a data URL; nothing else is shown as an image. */
export function isImageDataUrl(s: unknown): s is string {
  return typeof s === 'string' && /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(s);
}
