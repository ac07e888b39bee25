/**
 * Records → imagery layer descriptions: which asset of an archive item is the GeoTIFF, its
 * bands (`eo:bands` + `raster:bands`), the preview to show first, and the look (true colour,
 * or an index expression through a colour map). Pure: no vscode, no I/O.
 */
import * as l10n from '@vscode/l10n';
import type { ArchiveItem, Asset, Index, InsightOutput, Satellite, StacAsset, Visualization } from '../../api/records';
import { compileIndexExpression, parseIndexExpression } from '../../api/indexExpression';
import { isWebUrl } from '../protocol';
import type { ImageryBand, ImageryClass, ImageryLayerSpec, ImageryRender } from './protocol';
import { isObj } from '../../api/shape';

export type SpecOrNote = { spec: ImageryLayerSpec; previewUrl?: string } | { note: { id: string; title: string; text: string } };

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function hrefPath(href: string): string {
  try {
    return new URL(href).pathname.toLowerCase();
  } catch {
    return href.toLowerCase().split(/[?#]/)[0];
  }
}

export function isGeoTiffAsset(a: StacAsset): boolean {
  const type = (a.type ?? '').toLowerCase();
  return (type.startsWith('image/tiff') && (type.includes('geotiff') || !type.includes(';'))) || /\.tiff?$/.test(hrefPath(a.href ?? ''));
}

/** The item's GeoTIFF: a `data` asset first, then one with bands, then `visual`, then any. */
export function geotiffAssetOf(item: ArchiveItem): [string, StacAsset] | undefined {
  const all = Object.entries(item.assets ?? {}).filter(([, a]) => isObj(a) && typeof a.href === 'string' && isGeoTiffAsset(a));
  const roles = (a: StacAsset) => (Array.isArray(a.roles) ? a.roles : []);
  const score = ([, a]: [string, StacAsset]) =>
    (roles(a).includes('data') ? 4 : 0) +
    (Array.isArray(a['eo:bands']) ? 2 : 0) +
    (roles(a).includes('visual') ? 1 : 0) -
    (roles(a).some((r) => r === 'thumbnail' || r === 'overview') ? 8 : 0);
  return all.sort((x, y) => score(y) - score(x))[0];
}

/** A thumbnail/overview/visual picture (PNG, JPEG, WebP) to show while the GeoTIFF loads. */
export function previewAssetOf(item: ArchiveItem): StacAsset | undefined {
  const pics = Object.values(item.assets ?? {}).filter(
    (a) => isObj(a) && isWebUrl(a.href) && (/^image\/(png|jpeg|webp)/i.test(a.type ?? '') || /\.(png|jpe?g|webp)$/.test(hrefPath(a.href))),
  );
  const rank = (a: StacAsset) => {
    const r = Array.isArray(a.roles) ? a.roles : [];
    return r.includes('overview') ? 0 : r.includes('visual') ? 1 : r.includes('thumbnail') ? 2 : 3;
  };
  return pics.sort((a, b) => rank(a) - rank(b))[0];
}

/** `eo:bands` and `raster:bands` of an asset (falling back to the item's), zipped in file order. */
export function bandsOf(item: ArchiveItem, asset: StacAsset): ImageryBand[] {
  const eo = (
    Array.isArray(asset['eo:bands']) ? asset['eo:bands'] : Array.isArray(item.properties?.['eo:bands']) ? item.properties['eo:bands'] : []
  ) as unknown[];
  const raster = (Array.isArray(asset['raster:bands']) ? asset['raster:bands'] : []) as unknown[];
  const n = Math.max(eo.length, raster.length);
  const out: ImageryBand[] = [];
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    const e = isObj(eo[i]) ? (eo[i] as Record<string, unknown>) : {};
    const r = isObj(raster[i]) ? (raster[i] as Record<string, unknown>) : {};
    let name = typeof e.name === 'string' && e.name.trim() ? e.name.trim() : typeof e.common_name === 'string' ? e.common_name : `Band ${i + 1}`;
    if (used.has(name)) name = `${name} (${i + 1})`;
    used.add(name);
    out.push({
      name,
      commonName: typeof e.common_name === 'string' ? e.common_name : undefined,
      wavelength: num(e.center_wavelength),
      scale: num(r.scale),
      offset: num(r.offset),
      nodata: num(r.nodata),
    });
  }
  return out;
}

/** `proj:epsg` (STAC projection v1) or `proj:code` `EPSG:n` (v2), on the asset or the item. */
export function epsgOf(item: ArchiveItem, asset?: StacAsset): number | undefined {
  for (const src of [asset ?? {}, item.properties ?? {}] as Record<string, unknown>[]) {
    const e = num(src['proj:epsg']);
    if (e) return e;
    const m = typeof src['proj:code'] === 'string' ? /^EPSG:(\d+)$/i.exec(src['proj:code']) : null;
    if (m) return Number(m[1]);
  }
  return undefined;
}

function bboxOfGeometry(g: unknown): [number, number, number, number] | undefined {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number') {
      w = Math.min(w, c[0]);
      e = Math.max(e, c[0]);
      s = Math.min(s, c[1]);
      n = Math.max(n, c[1]);
    } else if (Array.isArray(c)) c.forEach(walk);
  };
  walk(isObj(g) ? g.coordinates : undefined);
  return Number.isFinite(w) ? [w, s, e, n] : undefined;
}

const NOT_READABLE = (path: string): string => {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(path)?.[1]?.toLowerCase();
  return scheme && scheme !== 'http' && scheme !== 'https'
    ? `This file is at ${scheme}:// (${path}), which the editor cannot read: only http(s) files can be drawn. Deliver it to a store with an http(s) endpoint, or open it with a tool that has cloud credentials.`
    : `This file has no http(s) address (${path || 'no path'}), so it cannot be drawn.`;
};

function rgbDefault(bands: ImageryBand[]): ImageryRender {
  return { kind: 'rgb', bands: ['', '', ''], percentiles: [2, 98], ...(bands.length ? {} : {}) };
}

export function archiveItemSpec(item: ArchiveItem): SpecOrNote {
  const id = `archive:${item.collection}/${item.id}`;
  const title = typeof item.properties?.title === 'string' && item.properties.title ? item.properties.title : item.id;
  const found = geotiffAssetOf(item);
  if (!found)
    return { note: { id, title, text: `${title} has no GeoTIFF asset (no asset of type image/tiff or with a .tif address), so there is nothing to draw.` } };
  const [key, asset] = found;
  if (!isWebUrl(asset.href)) return { note: { id, title, text: NOT_READABLE(asset.href) } };
  const bands = bandsOf(item, asset);
  const preview = previewAssetOf(item);
  return {
    spec: {
      id,
      title,
      url: asset.href,
      bands,
      render: rgbDefault(bands),
      bbox: item.bbox,
      epsg: epsgOf(item, asset),
      date: typeof item.properties?.datetime === 'string' ? item.properties.datetime.slice(0, 10) : undefined,
      source: { kind: 'archiveItem', collection: item.collection, id: item.id, asset: key },
    },
    previewUrl: preview?.href,
  };
}

/**
 * Bands named by a raster that carries only their names (an AOI asset's `band_list`), described
 * from its satellite's record as an archive item's `eo:bands`/`raster:bands` describe its own:
 * centre wavelength, scale and offset, and the satellite's `rgb_composite` as the red, green and
 * blue bands (so true colour is the default look, and the inspector draws a spectrum). The
 * OpenAPI's satellite band gives its wavelength in nm; a value under 100 is read as µm.
 */
export function satelliteBands(names: readonly string[], sat?: Satellite): ImageryBand[] {
  const rgb = sat?.rgb_composite;
  const common = new Map<string, string>();
  if (rgb) for (const c of ['red', 'green', 'blue'] as const) if (typeof rgb[c] === 'string') common.set(rgb[c].toLowerCase(), c);
  const byName = new Map((Array.isArray(sat?.bands) ? sat.bands : []).map((b) => [String(b.name).toLowerCase(), b]));
  return names
    .filter((n) => typeof n === 'string' && n)
    .map((name) => {
      const b = byName.get(name.toLowerCase());
      const w = num(b?.wavelength);
      return {
        name,
        commonName: common.get(name.toLowerCase()),
        wavelength: w === undefined ? undefined : w >= 100 ? w / 1000 : w,
        scale: num(b?.scale),
        offset: num(b?.offset),
      };
    });
}

function assetBands(a: Asset, sat?: Satellite): ImageryBand[] {
  return satelliteBands(Array.isArray(a.band_list) ? a.band_list : [], sat);
}

/** An AOI asset (a mosaic): drawn clipped to its AOI, its bands described by its AOI's satellite. */
export function aoiAssetSpec(a: Asset, sat?: Satellite): SpecOrNote {
  const id = `asset:${a.aoi_id}/${a.id}`;
  const title = a.name || a.id;
  if (!isWebUrl(a.path)) return { note: { id, title, text: NOT_READABLE(a.path) } };
  const bands = assetBands(a, sat);
  return {
    spec: {
      id,
      title,
      url: a.path,
      bands,
      render: rgbDefault(bands),
      clip: a.geometry,
      bbox: bboxOfGeometry(a.geometry),
      date: a.date,
      source: { kind: 'asset', aoiId: a.aoi_id, id: a.id },
    },
  };
}

/**
 * A visualization: its expression evaluated over the source mosaic of the same date (the AOI
 * asset that carries the expression's bands), scaled by `rescale` and coloured by the index's
 * colour map; when no such source is readable, its own single-band output is coloured as is.
 */
export function visualizationSpec(vis: Visualization, aoiAssets: readonly Asset[], index?: Index, sat?: Satellite): SpecOrNote {
  const own = [...(vis.assets ?? [])].sort((x, y) => (y.date ?? '').localeCompare(x.date ?? ''));
  const latest = own[0];
  const id = `visualization:${vis.aoi_id}/${vis.id}`;
  const name = vis.index_name || index?.name || l10n.t('Index');
  const title = latest?.date ? `${name} ${latest.date}` : name;
  const rescale: [number, number] =
    vis.rescale?.length >= 2 && vis.rescale[0] !== vis.rescale[1]
      ? [vis.rescale[0], vis.rescale[1]]
      : index?.rescale && index.rescale.length >= 2
        ? [index.rescale[0], index.rescale[1]]
        : vis.legend?.theoretical
          ? [vis.legend.theoretical.min, vis.legend.theoretical.max]
          : [-1, 1];
  const colormap = index?.colormap || (vis.expression_type === 'grayscale' ? 'greys' : 'viridis');
  // The service's visualization list carries no assets: then the source mosaic's footprint
  // (the AOI's) is the clip.
  const baseOf = (src?: Asset): { id: string; title: string; clip: unknown; bbox: ReturnType<typeof bboxOfGeometry>; date?: string } => {
    const clip = latest?.geometry ?? src?.geometry;
    // the date drawn: the legend says it, it names saved clips, and "Save Colour Range to
    // Service" offers it first
    const date = latest?.date || src?.date;
    return { id, title, clip, bbox: bboxOfGeometry(clip), ...(date ? { date: date.slice(0, 10) } : {}) };
  };
  if (vis.expression_type === 'composite') {
    const parsed = parseIndexExpression(vis.expression, 'composite');
    const names = vis.expression.split(',').map((s) => s.trim());
    const src = sourceFor(aoiAssets, latest, 'error' in parsed ? [] : names);
    if (!src || 'error' in parsed)
      return { note: { id, title, text: src ? `The composite "${vis.expression}" does not parse.` : noSource(vis, aoiAssets, latest) } };
    return {
      spec: {
        ...baseOf(src),
        url: src.path,
        bands: assetBands(src, sat),
        render: { kind: 'rgb', bands: names as [string, string, string] },
        source: { kind: 'visualization', aoiId: vis.aoi_id, id: vis.id, assetId: src.id },
      },
    };
  }
  const compiled = compileIndexExpression(vis.expression);
  const needs = 'error' in compiled ? [] : compiled.bands;
  const src = sourceFor(aoiAssets, latest, needs);
  if (src && !('error' in compiled)) {
    return {
      spec: {
        ...baseOf(src),
        url: src.path,
        bands: assetBands(src, sat),
        render: { kind: 'index', expression: vis.expression, rescale, colormap, legendTitle: name },
        source: { kind: 'visualization', aoiId: vis.aoi_id, id: vis.id, assetId: src.id },
      },
    };
  }
  // the service's own output: one band holding the index values
  if (latest && isWebUrl(latest.path)) {
    const band = latest.band_list?.[0] && /^[A-Za-z_][A-Za-z0-9_]*$/.test(latest.band_list[0]) ? latest.band_list[0] : 'value';
    return {
      spec: {
        ...baseOf(),
        url: latest.path,
        bands: [{ name: band }],
        render: { kind: 'index', expression: band, rescale, colormap, legendTitle: name },
        source: { kind: 'visualization', aoiId: vis.aoi_id, id: vis.id, assetId: latest.id },
      },
    };
  }
  return {
    note: { id, title, text: 'error' in compiled ? `The expression "${vis.expression}" does not parse: ${compiled.error}.` : noSource(vis, aoiAssets, latest) },
  };
}

function sourceFor(aoiAssets: readonly Asset[], latest: Asset | undefined, bands: string[]): Asset | undefined {
  if (!bands.length) return undefined;
  const fits = (a: Asset) => !a.visualization_id && bands.every((b) => a.band_list?.includes(b)) && isWebUrl(a.path);
  const sameDate = aoiAssets.filter((a) => fits(a) && (!latest || a.date === latest.date));
  return sameDate[0] ?? aoiAssets.filter(fits).sort((x, y) => (y.date ?? '').localeCompare(x.date ?? ''))[0];
}

function noSource(vis: Visualization, aoiAssets: readonly Asset[], latest: Asset | undefined): string {
  const paths = [latest?.path, ...aoiAssets.filter((a) => !a.visualization_id).map((a) => a.path)].filter((p): p is string => !!p);
  const unreadable = paths.find((p) => !isWebUrl(p));
  if (unreadable) return NOT_READABLE(unreadable);
  return `No asset of this AOI holds the bands of "${vis.expression}", so the visualization cannot be computed here.`;
}

/**
 * The classes of a classified raster from an insight output's properties (interface: a
 * `discretization` lists `{name, value, color}`, a `visualisation` of type `discrete` maps
 * value → colour). Names come from the discretization; where both give a colour, the
 * visualisation's wins (it is the one meant for display). Undefined when neither lists a class.
 */
export function outputClasses(properties: InsightOutput['properties'] | undefined): ImageryClass[] | undefined {
  const out = new Map<number, ImageryClass>();
  const classes = properties?.discretization?.classes;
  if (Array.isArray(classes)) {
    for (const c of classes) {
      const value = isObj(c) ? Number(c.value) : NaN;
      if (!Number.isFinite(value) || out.has(value)) continue;
      out.set(value, {
        value,
        color: typeof c.color === 'string' ? c.color : '',
        name: typeof c.name === 'string' && c.name.trim() ? c.name.trim() : undefined,
      });
    }
  }
  const discrete = properties?.visualisation?.discrete;
  if (isObj(discrete)) {
    for (const [k, color] of Object.entries(discrete)) {
      const value = Number(k);
      if (!k.trim() || !Number.isFinite(value) || typeof color !== 'string') continue;
      out.set(value, { ...out.get(value), value, color });
    }
  }
  return out.size ? [...out.values()] : undefined;
}

/**
 * An insight run's raster output (its `value` the COG's storage URL): classes coloured as its
 * properties declare, with their legend; an output that declares no classes is shown as grey.
 */
export function insightOutputSpec(o: InsightOutput, run: { aoiId: string; runId: string; title: string; legendTitle: string; geometry?: unknown }): SpecOrNote {
  const id = `output:${run.aoiId}/${run.runId}/${o.name}`;
  if (!isWebUrl(o.value)) return { note: { id, title: run.title, text: NOT_READABLE(o.value) } };
  const declared = Array.isArray(o.properties?.bands) ? o.properties.bands.filter((b): b is string => typeof b === 'string' && b.trim() !== '') : [];
  const bands: ImageryBand[] = declared.length ? declared.map((name) => ({ name })) : [];
  const classes = outputClasses(o.properties);
  const render: ImageryRender = classes
    ? { kind: 'classes', band: bands[0]?.name, classes, legendTitle: run.legendTitle }
    : { kind: 'rgb', bands: bands[0] ? [bands[0].name, bands[0].name, bands[0].name] : ['', '', ''], percentiles: [2, 98] };
  return {
    spec: {
      id,
      title: run.title,
      url: o.value,
      bands,
      render,
      bbox: bboxOfGeometry(run.geometry),
      // the run's AOI beside its output, so the person sees which area the output covers
      outline: run.geometry,
      source: { kind: 'insightOutput', aoiId: run.aoiId, runId: run.runId, output: o.name },
    },
  };
}
