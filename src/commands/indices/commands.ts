import vscode = require('vscode');
import { l10n } from 'vscode';
import { Cancelled, collect, type Aoi, type EoClient, type ExpressionType, type Index, type Satellite, type Visualization } from '../../api';
import type { ExtensionServices } from '../../services';
import { runCommand } from '../../ui/runCommand';
import { busy, pickAoi } from '../insights/pickers';
import { checkExpression, checkRescale, checkRescaleBound } from './expression';
import { legendsOf } from '../../api/legend';
import { describeLegend, expectedLegend, indexSummary } from './legend';

/** The service's expression types in words; `value` is what the service takes. */
function expressionTypes(): (vscode.QuickPickItem & { value: ExpressionType })[] {
  return [
    { label: l10n.t('Index'), detail: l10n.t('band arithmetic giving one value per pixel, e.g. {0}', '(B08-B04)/(B08+B04)'), value: 'index' },
    { label: l10n.t('Grayscale'), detail: l10n.t('one band (or arithmetic) shown in grey levels'), value: 'grayscale' },
    { label: l10n.t('Composite'), detail: l10n.t('three bands as red, green, blue, e.g. {0}', 'B04,B03,B02'), value: 'composite' },
  ];
}
const COLORMAPS = ['viridis', 'rdylgn', 'ylgn', 'blues', 'greens', 'reds', 'magma', 'inferno', 'plasma', 'gray'];

/** A prompt the person closed: the command stops quietly (the wrapper shows nothing). */
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
  return busy(l10n.t('Loading satellites…'), () => client.search.satellites());
}

async function pickSatellite(services: ExtensionServices, list: Satellite[], title: string, allowAny: boolean): Promise<Satellite | null> {
  const items: (vscode.QuickPickItem & { sat: Satellite | null })[] = [
    ...(allowAny ? [{ label: l10n.t('Any satellite'), sat: null }] : []),
    ...list.map((s) => ({ label: s.name, description: s.id, detail: l10n.t('bands {0}', s.bands.map((b) => b.name).join(', ')), sat: s })),
  ];
  return need(await services.ui.pick(items, { title, placeHolder: l10n.t('Satellite'), matchOnDescription: true, ignoreFocusOut: true })).sat;
}

/** List indices with filters (type, satellite, expression type); the picked one opens as JSON. */
export async function listIndices(services: ExtensionServices): Promise<Index[] | undefined> {
  const title = l10n.t('Indices');
  const client = await services.connection.getClient();
  const type = need(
    await services.ui.pick(
      [
        { label: l10n.t('All indices'), value: undefined },
        { label: l10n.t('Preset indices'), value: 'preset' as const },
        { label: l10n.t('Custom indices'), value: 'custom' as const },
      ],
      { title, placeHolder: l10n.t('Which indices: preset, custom or both?'), ignoreFocusOut: true },
    ),
  ).value;
  const sat = await pickSatellite(services, await satellites(client), title, true);
  const exprType = need(
    await services.ui.pick([{ label: l10n.t('Any expression type'), value: undefined }, ...expressionTypes()], {
      title,
      placeHolder: l10n.t('Expression type'),
      ignoreFocusOut: true,
    }),
  ).value;
  const filter = { type, satellite_id: sat?.id, expression_type: exprType };
  const indices = await busy(l10n.t('Loading indices…'), () => collect(client.indices.iterate(filter, { pageSize: 100, cap: 2000 })));
  if (indices.length === 0) {
    void services.ui.message('info', l10n.t('No index matches these filters.'), {});
    return indices;
  }
  const picked = await services.ui.pick(
    indices.map((i) => ({ label: i.name, description: i.expression, detail: indexSummary(i), index: i })),
    {
      title: l10n.t('{0}: {1} found', title, indices.length),
      placeHolder: l10n.t('Pick one to see it as JSON'),
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  if (picked) await showJson(picked.index);
  return indices;
}

/**
 * Create a custom index: satellite → name → expression type → expression (checked against the
 * satellite's band names as it is typed) → colormap → rescale min and max (min < max).
 */
export async function createIndex(services: ExtensionServices): Promise<Index | undefined> {
  const title = l10n.t('Create Custom Index');
  const client = await services.connection.getClient();
  const sat = need((await pickSatellite(services, await satellites(client), title, false)) ?? undefined);
  const bandNames = sat.bands.map((b) => b.name);
  const name = need(
    await services.ui.input({
      title,
      prompt: l10n.t('Name of the index'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : l10n.t('The index needs a name')),
    }),
  ).trim();
  const exprType = need(await services.ui.pick(expressionTypes(), { title, placeHolder: l10n.t('Expression type'), ignoreFocusOut: true })).value;
  const expression = need(
    await services.ui.input({
      title,
      prompt: l10n.t('Expression over {0} bands: {1}', sat.name, bandNames.join(', ')),
      placeHolder:
        exprType === 'composite'
          ? bandNames.slice(0, 3).join(',')
          : `(${bandNames[1] ?? 'B2'}-${bandNames[0] ?? 'B1'})/(${bandNames[1] ?? 'B2'}+${bandNames[0] ?? 'B1'})`,
      ignoreFocusOut: true,
      validateInput: (v) => {
        const r = checkExpression(v, exprType, bandNames);
        return r.ok ? undefined : r.reason;
      },
    }),
  ).trim();
  // Re-check: the seam (and tests) may bypass validateInput.
  const checked = checkExpression(expression, exprType, bandNames);
  if (!checked.ok) {
    await services.ui.message('error', l10n.t('The expression cannot be used: {0}.', checked.reason), {});
    return undefined;
  }
  const colormap =
    exprType === 'composite'
      ? ''
      : need(
          await services.ui.pick(
            COLORMAPS.map((c) => ({ label: c })),
            { title, placeHolder: l10n.t('Colormap'), ignoreFocusOut: true },
          ),
        ).label;
  const min = need(
    await services.ui.input({
      title,
      prompt: l10n.t('Rescale: minimum value (a whole number)'),
      value: exprType === 'index' ? '-1' : '0',
      ignoreFocusOut: true,
      validateInput: (v) => checkRescaleBound('min', v),
    }),
  );
  const max = need(
    await services.ui.input({
      title,
      prompt: l10n.t('Rescale: maximum value (a whole number more than {0})', min.trim()),
      value: exprType === 'index' ? '1' : '3000',
      ignoreFocusOut: true,
      validateInput: (v) => {
        const r = checkRescale(min, v);
        return r.ok ? undefined : r.reason;
      },
    }),
  );
  const rescale = checkRescale(min, max);
  if (!rescale.ok) {
    await services.ui.message('error', l10n.t('The rescale range cannot be used: {0}.', rescale.reason), {});
    return undefined;
  }
  const description = need(await services.ui.input({ title, prompt: l10n.t('Description (optional)'), ignoreFocusOut: true }));
  const created = await busy(l10n.t('Creating index {0}…', name), () =>
    client.indices.create({ name, description, expression, expression_type: exprType, satellite_id: sat.id, colormap, rescale: rescale.value }),
  );
  services.log.info(`Created custom index ${created.id} (${created.name}) for ${sat.id}`);
  void services.ui.message('info', l10n.t('Created custom index {0} (bands {1}).', created.name, created.bands.join(', ')), {});
  return created;
}

/** A visualization with its legend, as the JSON view shows it. */
export function legendView(v: Visualization): Record<string, unknown> {
  const want = expectedLegend(v.type, v.expression_type);
  return {
    legend_summary: describeLegend(v),
    legend_expected:
      want.dynamic || want.theoretical ? [want.dynamic ? 'dynamic' : undefined, want.theoretical ? 'theoretical' : undefined].filter(Boolean) : 'none',
    legends: legendsOf(v),
    legend: v.legend ?? null,
    visualization: { ...v, legend: undefined, metadata: undefined },
  };
}

/**
 * Create a visualization on an AOI: index (of the AOI's satellite) → assets whose bands the
 * index needs → create; the legend is shown and the AOI's visualizations refresh. `aoiGiven`
 * is the AOI whose "Visualizations" group (or row) it was run on; else one is picked.
 */
export async function createVisualization(services: ExtensionServices, aoiGiven: Aoi | undefined): Promise<Visualization | undefined> {
  const title = l10n.t('Create Visualization');
  const client = await services.connection.getClient();
  const aoi = aoiGiven ?? need(await pickAoi(services, client, l10n.t('{0}: AOI', title)));
  const [indices, assets] = await busy(l10n.t('Loading indices and assets for {0}…', aoi.name), () =>
    Promise.all([
      collect(client.indices.iterate({ satellite_id: aoi.satellite_id }, { pageSize: 100, cap: 2000 })),
      collect(client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100, cap: 1000 })),
    ]),
  );
  if (indices.length === 0) {
    await services.ui.message('info', l10n.t('No index exists for satellite {0}; create a custom index first.', aoi.satellite_id), {});
    return undefined;
  }
  if (assets.length === 0) {
    await services.ui.message('info', l10n.t('AOI "{0}" has no assets to visualize yet.', aoi.name), {});
    return undefined;
  }
  const index = need(
    await services.ui.pick(
      indices.map((i) => ({ label: i.name, description: i.expression, detail: indexSummary(i), index: i })),
      { title, placeHolder: l10n.t('Index'), matchOnDescription: true, ignoreFocusOut: true },
    ),
  ).index;
  const fits = assets.filter((a) => index.bands.every((b) => a.band_list.includes(b)));
  if (fits.length === 0) {
    await services.ui.message('error', l10n.t('No asset of "{0}" has every band {1} uses ({2}).', aoi.name, index.name, index.bands.join(', ')), {});
    return undefined;
  }
  const chosen = need(
    await services.ui.pickMany(
      fits.map((a) => ({ label: a.name, description: `${a.date} · ${a.band_list.join(', ')}`, picked: fits.length === 1, asset: a })),
      { title, placeHolder: l10n.t('Assets to visualize'), ignoreFocusOut: true },
    ),
  );
  if (chosen.length === 0) {
    await services.ui.message('info', l10n.t('Pick at least one asset.'), {});
    return undefined;
  }
  const viz = await busy(l10n.t('Creating the {0} visualization…', index.name), () =>
    client.visualizations.create(aoi.aoi_id, { index_id: index.id, src_asset_ids: chosen.map((c) => c.asset.id) }),
  );
  services.log.info(`Created visualization ${viz.id} (${index.name}) on AOI ${aoi.aoi_id}`);
  // It belongs under the AOI in the Projects view: refresh it if the view is there.
  void runCommand('refreshProjects').then(undefined, () => undefined);
  await showJson(legendView(viz));
  void services.ui.message('info', l10n.t('Visualization {0} created on {1}. {2}', index.name, aoi.name, describeLegend(viz)[0]), {});
  return viz;
}

/** Legend of an existing visualization: from a tree node's record, or picked on an AOI. */
export async function showVisualizationLegend(services: ExtensionServices, given: Visualization | undefined): Promise<Visualization | undefined> {
  let viz = given;
  if (!viz) {
    const client = await services.connection.getClient();
    const aoi = need(await pickAoi(services, client, l10n.t('Visualization legend: AOI')));
    const list = await busy(l10n.t('Loading visualizations of {0}…', aoi.name), () =>
      collect(client.visualizations.iterate(aoi.aoi_id, {}, { pageSize: 100, cap: 1000 })),
    );
    if (list.length === 0) {
      await services.ui.message('info', l10n.t('AOI "{0}" has no visualizations.', aoi.name), {});
      return undefined;
    }
    viz = need(
      await services.ui.pick(
        list.map((v) => ({ label: v.index_name || v.index_id, description: `${v.type} · ${v.expression_type}`, v })),
        { title: l10n.t('Visualization legend'), placeHolder: l10n.t('Visualization'), ignoreFocusOut: true },
      ),
    ).v;
  }
  await showJson(legendView(viz));
  return viz;
}
