import * as path from 'node:path';
import vscode = require('vscode');
import { l10n } from 'vscode';
import { Cancelled, collect, isNotSupported, type Aoi, type Asset, type Block, type EoClient, type InputDefinition, type Insight } from '../../api';
import {
  aoiBandGaps,
  buildInsightDocument,
  checkInsightName,
  checkVectorGeoJson,
  choiceKindsFor,
  insightFileName,
  isRequired,
  offerAssets,
  parseScalar,
  parseStacItemInput,
  scalarKindOf,
  serializeInsightDocument,
  type InputChoice,
  type InsightInputDocument,
  type StacItemInput,
} from '../../insights/build';
import { rememberAoi } from '../../insights/editor/documents';
import { isFinishedRun } from '../../api/insightRunState';
import { dateTime } from '../../format';
import { parseJson } from '../../parse';
import { sortVersions } from '../../insights/specSource';
import type { ExtensionServices } from '../../services';
import { StepFailure } from '../../ui/showError';
import type { InsightSource } from '../args';
import { noteUnreadable } from '../../ui/unreadable';
import { inputStepVia, pickStepVia } from '../../ui/prompts';
import { isBack, type StepBack } from '../../ui/stepPrompts';
import { busy, pickAoi } from './pickers';
import { insightSlug } from './insightSlug';

const title = (): string => l10n.t('New Insight Input');

/**
 * The flow's steps, counted from the first: block, version, AOI, the block's inputs (one step,
 * each input numbered inside it), name. A version list of one, or an AOI given by "Use Output
 * as Input…", is passed over and keeps its number.
 */
type StepName = 'block' | 'version' | 'aoi' | 'inputs' | 'name';

/**
 * The wizard's steps numbered as the person meets them: a step not asked (the version of a block
 * that has one, the AOI an output brings) takes no number, so the counter never jumps (1/5 to 3/5).
 * Every input is asked under one number.
 */
class StepNumbers {
  private order: StepName[];
  constructor(aoiAsked: boolean) {
    this.order = ['block', 'version', ...(aoiAsked ? (['aoi'] as const) : []), 'inputs', 'name'];
  }
  skip(step: StepName): void {
    this.order = this.order.filter((s) => s !== step);
  }
  at(step: StepName): { step: number; totalSteps: number } {
    return { step: this.order.indexOf(step) + 1, totalSteps: this.order.length };
  }
}

/** The builder or the data refuse: the command wrapper says why, plainly. */
class Refused extends StepFailure {
  constructor(reason: string) {
    super(() => l10n.t('Cannot build the insight input: {0}', reason), new Error(reason));
  }
}

/**
 * Nothing of the picked AOI can feed a raster input: the flow goes back to the AOI step with
 * `short`; `detail` (each asset and why it does not fit) goes to the log.
 */
class NoFit extends Error {
  constructor(
    readonly short: string,
    readonly detail: string,
  ) {
    super(short);
  }
}

interface Context {
  services: ExtensionServices;
  client: EoClient;
  aoi: Aoi;
  assets: Asset[];
  insights: Insight[];
  /** "Use as insight input" from the STAC panel: offered first for raster inputs. */
  stacItem?: StacItemInput;
  /** "Use Output as Input…" on an insight output: offered first for raster inputs. */
  output?: { run: Insight; outputName: string };
  steps: StepNumbers;
}

/** A step the person closed or went back from at the start: the command stops quietly. */
function need<T>(v: T | StepBack | undefined): T {
  if (v === undefined || isBack(v)) throw new Cancelled();
  return v;
}

/**
 * New Insight Input…: block → version → AOI → one choice per input definition, in the spec's
 * order → name. The pure builder makes the file; it is written to the workspace and opened.
 * `from` is `{stacItem, stacUrl}` when the STAC panel's "Use as insight input" runs it: raster
 * inputs then offer that item first. `from` is `{insightOutput: {run, outputName}}` from "Use
 * Output as Input…": the AOI is the run's and raster inputs offer that output first. Resolves
 * with the file's URI, or undefined when cancelled or refused.
 */
export async function newInsightInput(services: ExtensionServices, from: InsightSource): Promise<vscode.Uri | undefined> {
  const { output } = from;
  const source = parseStacItemInput(from.stacItem);
  if (!source.ok) {
    await services.ui.message('error', l10n.t('Cannot use this as an insight input: {0}.', source.reason), {});
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    await services.ui.message('warning', l10n.t('Open a folder first: the insight input file is written to the workspace.'), {});
    return undefined;
  }
  const client = await services.connection.getClient();
  const steps = new StepNumbers(!output);
  const block = await pickBlock(services, client, steps);
  // an AOI whose bands miss what a required raster input needs is marked, and listed last
  const unfit = (a: Aoi): string | undefined => {
    const gap = aoiBandGaps(block.spec.inputs, a.eo_bands)[0];
    return gap ? l10n.t('lacks {0} for input "{1}"', gap.missing.join(', '), gap.input) : undefined;
  };
  for (;;) {
    const aoi = output
      ? await busy(l10n.t('Loading the AOI…'), () => client.aois.get(output.run.aoi_id))
      : need(await pickAoi(services, client, l10n.t('{0}: AOI for {1} {2}', title(), block.spec.name, block.spec.version), steps.at('aoi'), unfit));
    const [assets, insights] = await busy(l10n.t('Loading assets and insights of {0}…', aoi.name), () =>
      Promise.all([
        collect(client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100, cap: 1000 })),
        // Recovers from a service without insight runs (beyond the interface): earlier outputs are then not offered.
        client.insightRuns.list(aoi.aoi_id).catch((err: unknown) => {
          if (isNotSupported(err)) return [] as Insight[];
          throw err;
        }),
      ]),
    );
    const ctx: Context = { services, client, aoi, assets, insights, stacItem: source.value, output, steps };
    const choices = new Map<string, InputChoice>();
    const defs = block.spec.inputs;
    try {
      for (const [i, def] of defs.entries()) {
        choices.set(def.name, await chooseFor(ctx, def, l10n.t('{0}: input {1} of {2}, {3}', title(), i + 1, defs.length, def.name)));
      }
    } catch (err) {
      // Recovers from an AOI that fits no input: back one step, unless the AOI came with the output.
      if (!(err instanceof NoFit)) throw err;
      // the AOI came with the output: there is no step to go back to
      if (output) throw new Refused(err.detail);
      // back one step, the block kept: the person picks another AOI
      services.log.info(`New Insight Input: ${err.detail}`);
      void services.ui.message('warning', err.short, {});
      continue;
    }
    const name = need(await askName(services, folder, insightSlug(`${block.spec.name}-${aoi.name}`), steps));
    const built = buildInsightDocument(name, block.spec, choices);
    if (!built.ok) throw new Refused(built.reason);
    return writeInsightInput(services, folder, built.value, aoi);
  }
}

/**
 * Writes a built insight input into the workspace folder as `<name>.insight.json`, remembers
 * the AOI it was built for (Estimate and Run use it) and opens it. Shared with the chat tool.
 */
export async function writeInsightInput(services: ExtensionServices, folder: vscode.WorkspaceFolder, doc: InsightInputDocument, aoi: Aoi): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder.uri, insightFileName(doc.name));
  await vscode.workspace.fs.writeFile(uri, Buffer.from(serializeInsightDocument(doc), 'utf8'));
  await rememberAoi(services.context.workspaceState, uri, aoi.aoi_id);
  await vscode.window.showTextDocument(uri, { preview: false });
  services.log.info(`Wrote ${uri.fsPath} (${doc.input.length} inputs, block ${doc.block.name} ${doc.block.version}, AOI ${aoi.aoi_id})`);
  return uri;
}

async function pickBlock(services: ExtensionServices, client: EoClient, steps: StepNumbers): Promise<Block> {
  const blocks = await busy(l10n.t('Loading insight blocks…'), () => client.blocks.list({ mode: 'insight' }));
  noteUnreadable(services.ui, l10n.t('insight blocks'), blocks);
  const insightBlocks = blocks.filter((b) => b.mode === undefined || b.mode === 'insight');
  if (insightBlocks.length === 0) throw new Refused(l10n.t('the service lists no insight blocks.'));
  const byName = new Map<string, Block>();
  for (const b of insightBlocks) if (!byName.has(b.name)) byName.set(b.name, b);
  const picked = need(
    await pickStepVia(
      services.ui,
      [...byName.values()].map((b) => ({ label: b.display_name ?? b.name, description: b.name, detail: b.description, block: b })),
      {
        title: l10n.t('{0}: block', title()),
        ...steps.at('block'),
        canGoBack: false,
        placeHolder: l10n.t('Pick the processing block'),
        matchOnDescription: true,
        ignoreFocusOut: true,
      },
    ),
  ).block;
  const versions = await busy(l10n.t('Loading versions of {0}…', picked.name), () => client.blocks.insights({ name: picked.name }));
  const usable = versions.filter((b) => Array.isArray(b.spec?.inputs));
  if (usable.length === 0) throw new Refused(l10n.t('block {0} has no version with a spec.', picked.name));
  if (usable.length === 1) {
    steps.skip('version');
    return usable[0];
  }
  const order = sortVersions(usable.map((b) => b.spec.version));
  const items = order.map((v) => ({ label: v, description: v === order[0] ? l10n.t('latest') : undefined, block: usable.find((b) => b.spec.version === v)! }));
  return need(
    await pickStepVia(services.ui, items, {
      title: l10n.t('{0}: version of {1}', title(), picked.name),
      ...steps.at('version'),
      canGoBack: false,
      placeHolder: l10n.t('Pick the block version'),
      ignoreFocusOut: true,
    }),
  ).block;
}

interface ChoiceItem extends vscode.QuickPickItem {
  make?: () => Promise<InputChoice> | InputChoice;
}

const skipItem = (): ChoiceItem => ({
  label: l10n.t('Skip'),
  iconPath: new vscode.ThemeIcon('circle-slash'),
  description: l10n.t('optional input: leave it out'),
  make: () => ({ kind: 'skip' }),
});

async function chooseFor(ctx: Context, def: InputDefinition, title: string): Promise<InputChoice> {
  const { services } = ctx;
  const required = isRequired(def);
  const kinds = choiceKindsFor(def.format, required);
  const placeHolder = required ? def.description || def.name : l10n.t('{0} (optional)', def.description || def.name);

  if (def.format === 'raster') return chooseRaster(ctx, def, title, required, placeHolder);

  if (def.format === 'vector') return chooseVector(ctx, def, title, required, placeHolder);

  if (def.format === 'boolean' || (def.type === 'boolean' && kinds.includes('text'))) {
    const items: ChoiceItem[] = [
      // the JSON values themselves: they are what the file holds
      { label: String(true), description: l10n.t('yes'), make: () => ({ kind: 'text', text: 'true' }) },
      { label: String(false), description: l10n.t('no'), make: () => ({ kind: 'text', text: 'false' }) },
    ];
    if (!required) items.push(skipItem());
    return pickChoice(ctx, items, title, placeHolder);
  }

  if (kinds.includes('text')) {
    const kind = scalarKindOf(def.format, def.type) ?? 'string';
    const hint = kind === 'date' ? l10n.t('YYYY-MM-DD or an RFC 3339 date-time') : kind === 'number' ? l10n.t('a number') : l10n.t('text');
    const what = def.description || def.name;
    // A required date starts filled in with today (Enter keeps it); an optional one shows an
    // example marked as such, since an empty box means "skip".
    const today = new Date().toISOString().slice(0, 10);
    const text = need(
      await inputStepVia(services.ui, {
        title,
        ...ctx.steps.at('inputs'),
        canGoBack: false,
        prompt: required ? l10n.t('{0} ({1})', what, hint) : l10n.t('{0} ({1}) — leave empty to skip', what, hint),
        value: kind === 'date' && required ? today : undefined,
        placeHolder: kind === 'date' && !required ? l10n.t('e.g. {0}', today) : undefined,
        ignoreFocusOut: true,
        validateInput: (v) => {
          if (!required && v.trim() === '') return undefined;
          // the box's prompt gives way to this message: it keeps saying what to type
          if (required && v.trim() === '')
            return def.description ? l10n.t('{0} is required: {1} ({2})', def.name, def.description, hint) : l10n.t('{0} is required ({1})', def.name, hint);
          const r = parseScalar(kind, v);
          if (!r.ok) return r.reason;
          if (def.type === 'number') {
            const n = parseScalar('number', v);
            if (!n.ok) return n.reason;
          }
          return undefined;
        },
      }),
    );
    if (!required && text.trim() === '') return { kind: 'skip' };
    return { kind: 'text', text };
  }

  if (!required) return { kind: 'skip' };
  throw new Refused(
    l10n.t('input "{0}" has format "{1}", which the builder does not know (raster, vector, date, number, string, boolean).', def.name, def.format),
  );
}

/** A raster input: the STAC item or output given first, then the AOI's assets that have the bands, then finished runs' raster outputs. */
async function chooseRaster(ctx: Context, def: InputDefinition, title: string, required: boolean, placeHolder: string): Promise<InputChoice> {
  const offers = offerAssets(def, ctx.assets);
  const items: ChoiceItem[] = [];
  const stac = ctx.stacItem;
  if (stac) {
    items.push({
      label: l10n.t('STAC item {0}', stac.item.id),
      iconPath: new vscode.ThemeIcon('globe'),
      description: l10n.t('{0} · from the STAC panel', stac.item.collection),
      detail: stac.stacUrl,
      make: () => ({ kind: 'stac-item', item: stac.item, stacUrl: stac.stacUrl, aoi: ctx.aoi }),
    });
  }
  for (const o of offers.filter((x) => !x.refusal)) {
    items.push({
      label: o.asset.name,
      iconPath: new vscode.ThemeIcon('file-media'),
      description: l10n.t('asset · {0}', o.asset.date),
      detail: l10n.t('bands {0}', o.asset.band_list.join(', ')),
      make: () => ({ kind: 'asset', asset: o.asset }),
    });
  }
  const chosen = ctx.output;
  if (chosen) {
    items.push({
      label: `${chosen.run.name} › ${chosen.outputName}`,
      iconPath: new vscode.ThemeIcon('beaker'),
      description: l10n.t('the output you chose'),
      make: () => ({ kind: 'insight-output', insight: chosen.run, outputName: chosen.outputName }),
    });
  }
  for (const ins of ctx.insights.filter((x) => isFinishedRun(x))) {
    for (const out of ins.output.filter((x) => x.format === 'raster' && x.value && !(chosen && chosen.run.id === ins.id && chosen.outputName === x.name))) {
      items.push({
        label: `${ins.name} › ${out.name}`,
        iconPath: new vscode.ThemeIcon('beaker'),
        description: ins.block
          ? l10n.t('insight output · {0} {1} · {2}', ins.block.name, ins.block.version, dateTime(ins.created_at))
          : l10n.t('insight output · block not stated · {0}', dateTime(ins.created_at)),
        make: () => ({ kind: 'insight-output', insight: ins, outputName: out.name }),
      });
    }
  }
  if (!required) items.push(skipItem());
  if (items.length === 0) {
    const why =
      offers.length === 0
        ? l10n.t('AOI "{0}" has no assets and no insight outputs', ctx.aoi.name)
        : offers.map((o) => l10n.t('asset "{0}" {1}', o.asset.name, o.refusal ?? '')).join('; ');
    const detail = def.properties?.bands
      ? l10n.t('no asset or insight output can feed raster input "{0}" (needs bands {1}): {2}.', def.name, def.properties.bands.join(', '), why)
      : l10n.t('no asset or insight output can feed raster input "{0}": {1}.', def.name, why);
    const short = def.properties?.bands
      ? l10n.t('Nothing of AOI "{0}" has bands {1} for input "{2}": pick another AOI.', ctx.aoi.name, def.properties.bands.join(', '), def.name)
      : l10n.t('Nothing of AOI "{0}" can feed input "{1}": pick another AOI.', ctx.aoi.name, def.name);
    throw new NoFit(short, detail);
  }
  return pickChoice(ctx, items, title, placeHolder);
}

/** A vector input: the AOI's outline or a GeoJSON file, each with the asset it goes with. */
async function chooseVector(ctx: Context, def: InputDefinition, title: string, required: boolean, placeHolder: string): Promise<InputChoice> {
  const { services } = ctx;
  const lineage = ctx.assets.filter((a) => a.path);
  if (lineage.length === 0) {
    if (!required) return { kind: 'skip' };
    throw new Refused(l10n.t('vector input "{0}" must say which AOI asset it goes with, and AOI "{1}" has no asset.', def.name, ctx.aoi.name));
  }
  const pickLineage = async (): Promise<Asset> => {
    if (lineage.length === 1) return lineage[0];
    const items = lineage.map((a) => ({ label: a.name, description: `${a.date} · ${a.band_list.join(', ')}`, asset: a }));
    const placeHolder = l10n.t('Which of the AOI\'s images does "{0}" go with? (The service records it as the input\'s source.)', def.name);
    return need(await pickStepVia(services.ui, items, { title, ...ctx.steps.at('inputs'), canGoBack: false, placeHolder, ignoreFocusOut: true })).asset;
  };
  const items: ChoiceItem[] = [
    {
      label: l10n.t('AOI geometry'),
      iconPath: new vscode.ThemeIcon('globe'),
      description: ctx.aoi.name,
      make: async () => ({ kind: 'aoi-geometry', aoi: ctx.aoi, asset: await pickLineage() }),
    },
    {
      label: l10n.t('GeoJSON file…'),
      iconPath: new vscode.ThemeIcon('file'),
      make: async () => {
        const uris = need(
          await services.ui.openDialog({ title: l10n.t('{0}: GeoJSON file', def.name), canSelectMany: false, filters: { GeoJSON: ['geojson', 'json'] } }),
        );
        const uri = need(uris[0]);
        const label = path.basename(uri.fsPath);
        // not a failure of the command: the file the person picked is refused, with the reason
        const json = parseJson(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'));
        if ('reason' in json) throw new Refused(l10n.t('{0} is not readable JSON ({1}).', label, json.reason));
        const geojson = json.value;
        const check = checkVectorGeoJson(geojson);
        if (!check.ok) throw new Refused(l10n.t('{0}: {1}.', label, check.reason));
        return { kind: 'geojson', geojson, label, aoi: ctx.aoi, asset: await pickLineage() };
      },
    },
  ];
  if (!required) items.push(skipItem());
  return pickChoice(ctx, items, title, placeHolder);
}

async function pickChoice(ctx: Context, items: ChoiceItem[], title: string, placeHolder: string): Promise<InputChoice> {
  const picked = need(
    await pickStepVia(ctx.services.ui, items, {
      title,
      ...ctx.steps.at('inputs'),
      canGoBack: false,
      placeHolder,
      matchOnDescription: true,
      ignoreFocusOut: true,
    }),
  );
  return need(await picked.make?.());
}

async function askName(services: ExtensionServices, folder: vscode.WorkspaceFolder, suggestion: string, steps: StepNumbers): Promise<string | undefined> {
  let value = suggestion;
  for (;;) {
    const name = await inputStepVia(services.ui, {
      title: l10n.t('{0}: name', title()),
      ...steps.at('name'),
      canGoBack: false,
      prompt: l10n.t("The insight's name; the file is <name>.insight.json in the workspace folder"),
      value,
      ignoreFocusOut: true,
      validateInput: (v) => checkInsightName(v),
    });
    if (name === undefined || isBack(name)) return undefined;
    const uri = vscode.Uri.joinPath(folder.uri, insightFileName(name));
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    if (!exists) return name;
    const answer = await services.ui.message('warning', l10n.t('{0} already exists. Replace it?', insightFileName(name)), { modal: true }, l10n.t('Replace'));
    if (answer === l10n.t('Replace')) return name;
    value = name;
  }
}
