import vscode = require('vscode');
import { collect, type Aoi, type EoClient, type ExpressionType, type Index, type Satellite, type Visualization } from '../../api';
import type { ExtensionServices } from '../../services';
import { showError } from '../../ui/showError';
import { runCommand } from '../../ui/runCommand';
import { busy, pickAoi } from '../insights/pickers';
import { checkExpression, checkRescale, checkRescaleBound } from './expression';
import { legendsOf } from '../../api/legend';
import { describeLegend, expectedLegend, indexSummary } from './legend';

const EXPRESSION_TYPES: { label: ExpressionType; detail: string }[] = [
  { label: 'index', detail: 'band arithmetic giving one value per pixel, e.g. (B08-B04)/(B08+B04)' },
  { label: 'grayscale', detail: 'one band (or arithmetic) shown in grey levels' },
  { label: 'composite', detail: 'three bands as red, green, blue, e.g. B04,B03,B02' },
];
const COLORMAPS = ['viridis', 'rdylgn', 'ylgn', 'blues', 'greens', 'reds', 'magma', 'inferno', 'plasma', 'gray'];

class Cancelled extends Error {}
function need<T>(v: T | undefined): T {
  if (v === undefined) throw new Cancelled();
  return v;
}

/** Opens a read-only-ish JSON view of a record (an untitled JSON document). */
async function showJson(value: unknown): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content: `${JSON.stringify(value, null, 2)}\n` });
  await vscode.window.showTextDocument(doc, { preview: true });
  return doc;
}

async function satellites(client: EoClient): Promise<Satellite[]> {
  return busy('Loading satellites…', () => client.search.satellites());
}

async function pickSatellite(services: ExtensionServices, list: Satellite[], title: string, allowAny: boolean): Promise<Satellite | null> {
  const items: (vscode.QuickPickItem & { sat: Satellite | null })[] = [
    ...(allowAny ? [{ label: 'Any satellite', sat: null }] : []),
    ...list.map((s) => ({ label: s.name, description: s.id, detail: `bands ${s.bands.map((b) => b.name).join(', ')}`, sat: s })),
  ];
  return need(await services.ui.pick(items, { title, placeHolder: 'Satellite', matchOnDescription: true, ignoreFocusOut: true })).sat;
}

/** List indices with filters (type, satellite, expression type); the picked one opens as JSON. */
export async function listIndices(services: ExtensionServices): Promise<Index[] | undefined> {
  const title = 'Indices';
  try {
    const client = await services.connection.getClient();
    const type = need(await services.ui.pick(
      [{ label: 'All', value: undefined }, { label: 'preset', value: 'preset' as const }, { label: 'custom', value: 'custom' as const }],
      { title, placeHolder: 'Which indices: preset, custom or both?', ignoreFocusOut: true },
    )).value;
    const sat = await pickSatellite(services, await satellites(client), title, true);
    const exprType = need(await services.ui.pick(
      [{ label: 'Any expression type', value: undefined }, ...EXPRESSION_TYPES.map((e) => ({ label: e.label, detail: e.detail, value: e.label }))],
      { title, placeHolder: 'Expression type', ignoreFocusOut: true },
    )).value;
    const filter = { type, satellite_id: sat?.id, expression_type: exprType };
    const indices = await busy('Loading indices…', () => collect(client.indices.iterate(filter, { pageSize: 100, cap: 2000 })));
    if (indices.length === 0) {
      void services.ui.message('info', 'No index matches these filters.', {});
      return indices;
    }
    const picked = await services.ui.pick(
      indices.map((i) => ({ label: i.name, description: i.expression, detail: indexSummary(i), index: i })),
      { title: `${title}: ${indices.length} found`, placeHolder: 'Pick one to see it as JSON', matchOnDescription: true, matchOnDetail: true },
    );
    if (picked) await showJson(picked.index);
    return indices;
  } catch (err) {
    if (err instanceof Cancelled) return undefined;
    await showError(services, 'List indices', err);
    return undefined;
  }
}

/**
 * Create a custom index: satellite → name → expression type → expression (checked against the
 * satellite's band names as it is typed) → colormap → rescale min and max (min < max).
 */
export async function createIndex(services: ExtensionServices): Promise<Index | undefined> {
  const title = 'Create Custom Index';
  try {
    const client = await services.connection.getClient();
    const sat = need(await pickSatellite(services, await satellites(client), title, false) ?? undefined);
    const bandNames = sat.bands.map((b) => b.name);
    const name = need(await services.ui.input({
      title, prompt: 'Name of the index', ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'The index needs a name'),
    })).trim();
    const exprType = need(await services.ui.pick(
      EXPRESSION_TYPES.map((e) => ({ label: e.label, detail: e.detail })),
      { title, placeHolder: 'Expression type', ignoreFocusOut: true },
    )).label as ExpressionType;
    const expression = need(await services.ui.input({
      title,
      prompt: `Expression over ${sat.name} bands: ${bandNames.join(', ')}`,
      placeHolder: exprType === 'composite' ? bandNames.slice(0, 3).join(',') : `(${bandNames[1] ?? 'B2'}-${bandNames[0] ?? 'B1'})/(${bandNames[1] ?? 'B2'}+${bandNames[0] ?? 'B1'})`,
      ignoreFocusOut: true,
      validateInput: (v) => {
        const r = checkExpression(v, exprType, bandNames);
        return r.ok ? undefined : r.reason;
      },
    })).trim();
    // Re-check: the seam (and tests) may bypass validateInput.
    const checked = checkExpression(expression, exprType, bandNames);
    if (!checked.ok) {
      await services.ui.message('error', `The expression cannot be used: ${checked.reason}.`, {});
      return undefined;
    }
    const colormap = exprType === 'composite'
      ? ''
      : need(await services.ui.pick(COLORMAPS.map((c) => ({ label: c })), { title, placeHolder: 'Colormap', ignoreFocusOut: true })).label;
    const min = need(await services.ui.input({
      title, prompt: 'Rescale: minimum value (a whole number)', value: exprType === 'index' ? '-1' : '0', ignoreFocusOut: true,
      validateInput: (v) => checkRescaleBound('min', v),
    }));
    const max = need(await services.ui.input({
      title, prompt: `Rescale: maximum value (a whole number more than ${min.trim()})`, value: exprType === 'index' ? '1' : '3000', ignoreFocusOut: true,
      validateInput: (v) => {
        const r = checkRescale(min, v);
        return r.ok ? undefined : r.reason;
      },
    }));
    const rescale = checkRescale(min, max);
    if (!rescale.ok) {
      await services.ui.message('error', `The rescale range cannot be used: ${rescale.reason}.`, {});
      return undefined;
    }
    const description = need(await services.ui.input({ title, prompt: 'Description (optional)', ignoreFocusOut: true }));
    const created = await busy(`Creating index ${name}…`, () =>
      client.indices.create({ name, description, expression, expression_type: exprType, satellite_id: sat.id, colormap, rescale: rescale.value }),
    );
    services.log.info(`Created custom index ${created.id} (${created.name}) for ${sat.id}`);
    void services.ui.message('info', `Created custom index ${created.name} (bands ${created.bands.join(', ')}).`, {});
    return created;
  } catch (err) {
    if (err instanceof Cancelled) return undefined;
    await showError(services, 'Create custom index', err);
    return undefined;
  }
}

/** The Projects tree's "Visualizations" group node: its parent holds the AOI record. */
export interface AoiChildNode {
  parent?: { record?: Aoi };
}

/** A visualization with its legend, as the JSON view shows it. */
export function legendView(v: Visualization): Record<string, unknown> {
  const want = expectedLegend(v.type, v.expression_type);
  return {
    legend_summary: describeLegend(v),
    legend_expected: want.dynamic || want.theoretical
      ? [want.dynamic ? 'dynamic' : undefined, want.theoretical ? 'theoretical' : undefined].filter(Boolean)
      : 'none',
    legends: legendsOf(v),
    legend: v.legend ?? null,
    visualization: { ...v, legend: undefined, metadata: undefined },
  };
}

/**
 * Create a visualization on an AOI: index (of the AOI's satellite) → assets whose bands the
 * index needs → create; the legend is shown and the AOI's visualizations refresh.
 */
export async function createVisualization(services: ExtensionServices, node?: AoiChildNode): Promise<Visualization | undefined> {
  const title = 'Create Visualization';
  try {
    const client = await services.connection.getClient();
    // From the tree, the "Visualizations" group of an AOI names the AOI already.
    const fromTree = node?.parent?.record;
    const aoi = fromTree && typeof fromTree.aoi_id === 'string' ? fromTree : need(await pickAoi(services, client, `${title}: AOI`));
    const [indices, assets] = await busy(`Loading indices and assets for ${aoi.name}…`, () =>
      Promise.all([
        collect(client.indices.iterate({ satellite_id: aoi.satellite_id }, { pageSize: 100, cap: 2000 })),
        collect(client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100, cap: 1000 })),
      ]),
    );
    if (indices.length === 0) {
      await services.ui.message('info', `No index exists for satellite ${aoi.satellite_id}; create a custom index first.`, {});
      return undefined;
    }
    if (assets.length === 0) {
      await services.ui.message('info', `AOI "${aoi.name}" has no assets to visualize yet.`, {});
      return undefined;
    }
    const index = need(await services.ui.pick(
      indices.map((i) => ({ label: i.name, description: i.expression, detail: indexSummary(i), index: i })),
      { title, placeHolder: 'Index', matchOnDescription: true, ignoreFocusOut: true },
    )).index;
    const fits = assets.filter((a) => index.bands.every((b) => a.band_list.includes(b)));
    if (fits.length === 0) {
      await services.ui.message('error', `No asset of "${aoi.name}" has every band ${index.name} uses (${index.bands.join(', ')}).`, {});
      return undefined;
    }
    const chosen = need(await services.ui.pickMany(
      fits.map((a) => ({ label: a.name, description: `${a.date} · ${a.band_list.join(', ')}`, picked: fits.length === 1, asset: a })),
      { title, placeHolder: 'Assets to visualize', ignoreFocusOut: true },
    ));
    if (chosen.length === 0) {
      await services.ui.message('info', 'Pick at least one asset.', {});
      return undefined;
    }
    const viz = await busy(`Creating the ${index.name} visualization…`, () =>
      client.visualizations.create(aoi.aoi_id, { index_id: index.id, src_asset_ids: chosen.map((c) => c.asset.id) }),
    );
    services.log.info(`Created visualization ${viz.id} (${index.name}) on AOI ${aoi.aoi_id}`);
    // It belongs under the AOI in the Projects view: refresh it if the view is there.
    void runCommand('refreshProjects').then(undefined, () => undefined);
    await showJson(legendView(viz));
    void services.ui.message('info', `Visualization ${index.name} created on ${aoi.name}. ${describeLegend(viz)[0]}`, {});
    return viz;
  } catch (err) {
    if (err instanceof Cancelled) return undefined;
    await showError(services, 'Create visualization', err);
    return undefined;
  }
}

/** Legend of an existing visualization: from a tree node's record, or picked on an AOI. */
export async function showVisualizationLegend(services: ExtensionServices, node?: { record?: Visualization }): Promise<Visualization | undefined> {
  try {
    let viz = node?.record;
    if (!viz) {
      const client = await services.connection.getClient();
      const aoi = need(await pickAoi(services, client, 'Visualization legend: AOI'));
      const list = await busy(`Loading visualizations of ${aoi.name}…`, () => collect(client.visualizations.iterate(aoi.aoi_id, {}, { pageSize: 100, cap: 1000 })));
      if (list.length === 0) {
        await services.ui.message('info', `AOI "${aoi.name}" has no visualizations.`, {});
        return undefined;
      }
      viz = need(await services.ui.pick(
        list.map((v) => ({ label: v.index_name || v.index_id, description: `${v.type} · ${v.expression_type}`, v })),
        { title: 'Visualization legend', placeHolder: 'Visualization', ignoreFocusOut: true },
      )).v;
    }
    await showJson(legendView(viz));
    return viz;
  } catch (err) {
    if (err instanceof Cancelled) return undefined;
    await showError(services, 'Show legend', err);
    return undefined;
  }
}
