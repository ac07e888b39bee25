import * as path from 'node:path';
import vscode = require('vscode');
import { collect, isNotSupported, type Aoi, type Asset, type Block, type EoClient, type InputDefinition, type Insight } from '../../api';
import {
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
  type StacItemInput,
} from '../../insights/build';
import { rememberAoi } from '../../insights/editor/documents';
import { isFinishedRun } from '../../api/insightRunState';
import { dateTime } from '../../format';
import { sortVersions } from '../../insights/specSource';
import type { ExtensionServices } from '../../services';
import { showError } from '../../ui/showError';
import { busy, pickAoi } from './pickers';

const TITLE = 'New Insight Input';

/** A step was cancelled: stop quietly. */
class Cancelled extends Error {}
/** The builder or the data refuse: say why, plainly. */
class Refused extends Error {}

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
}

/** `{insightOutput: {run, outputName}}` from "Use Output as Input…", else undefined. */
function outputSource(from: unknown): { run: Insight; outputName: string } | undefined {
  if (typeof from !== 'object' || from === null || !('insightOutput' in from)) return undefined;
  const o = (from as { insightOutput?: { run?: Insight; outputName?: unknown } }).insightOutput;
  return o?.run && typeof o.run.id === 'string' && Array.isArray(o.run.output) && typeof o.outputName === 'string' ? { run: o.run, outputName: o.outputName } : undefined;
}

function need<T>(v: T | undefined): T {
  if (v === undefined) throw new Cancelled();
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
export async function newInsightInput(services: ExtensionServices, from?: unknown): Promise<vscode.Uri | undefined> {
  const output = outputSource(from);
  const source = parseStacItemInput(output ? undefined : from);
  if (!source.ok) {
    await services.ui.message('error', `Cannot use this as an insight input: ${source.reason}.`, {});
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    await services.ui.message('warning', 'Open a folder first: the insight input file is written to the workspace.', {});
    return undefined;
  }
  try {
    const client = await services.connection.getClient();
    const block = await pickBlock(services, client);
    const aoi = output
      ? await busy('Loading the AOI…', () => client.aois.get(output.run.aoi_id))
      : need(await pickAoi(services, client, `${TITLE}: AOI for ${block.spec.name} ${block.spec.version}`));
    const [assets, insights] = await busy(`Loading assets and insights of ${aoi.name}…`, () =>
      Promise.all([
        collect(client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100, cap: 1000 })),
        // Running insights is beyond the interface: without it, earlier outputs are simply not offered.
        client.insightRuns.list(aoi.aoi_id).catch((err: unknown) => {
          if (isNotSupported(err)) return [] as Insight[];
          throw err;
        }),
      ]),
    );
    const ctx: Context = { services, client, aoi, assets, insights, stacItem: source.value, output };
    const choices = new Map<string, InputChoice>();
    const defs = block.spec.inputs;
    for (const [i, def] of defs.entries()) {
      choices.set(def.name, await chooseFor(ctx, def, `${TITLE} (${i + 1}/${defs.length}): ${def.name}`));
    }
    const name = need(await askName(services, folder, `${block.spec.name}-${aoi.name}`));
    const built = buildInsightDocument(name, block.spec, choices);
    if (!built.ok) throw new Refused(built.reason);
    const uri = vscode.Uri.joinPath(folder.uri, insightFileName(built.value.name));
    await vscode.workspace.fs.writeFile(uri, Buffer.from(serializeInsightDocument(built.value), 'utf8'));
    await rememberAoi(services.context.workspaceState, uri, aoi.aoi_id);
    await vscode.window.showTextDocument(uri, { preview: false });
    services.log.info(`Wrote ${uri.fsPath} (${built.value.input.length} inputs, block ${block.spec.name} ${block.spec.version}, AOI ${aoi.aoi_id})`);
    return uri;
  } catch (err) {
    if (err instanceof Cancelled) return undefined;
    if (err instanceof Refused) {
      await services.ui.message('error', `Cannot build the insight input: ${err.message}`, {});
      return undefined;
    }
    await showError(services, TITLE, err);
    return undefined;
  }
}

async function pickBlock(services: ExtensionServices, client: EoClient): Promise<Block> {
  const blocks = await busy('Loading insight blocks…', () => client.blocks.list({ mode: 'insight' }));
  const insightBlocks = blocks.filter((b) => b.mode === undefined || b.mode === 'insight');
  if (insightBlocks.length === 0) throw new Refused('the service lists no insight blocks.');
  const byName = new Map<string, Block>();
  for (const b of insightBlocks) if (!byName.has(b.name)) byName.set(b.name, b);
  const picked = need(
    await services.ui.pick(
      [...byName.values()].map((b) => ({ label: b.display_name ?? b.name, description: b.name, detail: b.description, block: b })),
      { title: `${TITLE}: block`, placeHolder: 'Pick the processing block', matchOnDescription: true, ignoreFocusOut: true },
    ),
  ).block;
  const versions = await busy(`Loading versions of ${picked.name}…`, () => client.blocks.insights({ name: picked.name }));
  const usable = versions.filter((b) => Array.isArray(b.spec?.inputs));
  if (usable.length === 0) throw new Refused(`block ${picked.name} has no version with a spec.`);
  if (usable.length === 1) return usable[0];
  const order = sortVersions(usable.map((b) => b.spec.version));
  const items = order.map((v) => ({ label: v, description: v === order[0] ? 'latest' : undefined, block: usable.find((b) => b.spec.version === v)! }));
  return need(await services.ui.pick(items, { title: `${TITLE}: version of ${picked.name}`, placeHolder: 'Pick the block version', ignoreFocusOut: true })).block;
}

interface ChoiceItem extends vscode.QuickPickItem {
  make?: () => Promise<InputChoice> | InputChoice;
}

const SKIP_ITEM: ChoiceItem = { label: '$(circle-slash) Skip', description: 'optional input: leave it out', make: () => ({ kind: 'skip' }) };

async function chooseFor(ctx: Context, def: InputDefinition, title: string): Promise<InputChoice> {
  const { services } = ctx;
  const required = isRequired(def);
  const kinds = choiceKindsFor(def.format, required);
  const placeHolder = `${def.description || def.name}${required ? '' : ' (optional)'}`;

  if (def.format === 'raster') {
    const offers = offerAssets(def, ctx.assets);
    const items: ChoiceItem[] = [];
    const stac = ctx.stacItem;
    if (stac) {
      items.push({
        label: `$(globe) STAC item ${stac.item.id}`,
        description: `${stac.item.collection} · from the STAC panel`,
        detail: stac.stacUrl,
        make: () => ({ kind: 'stac-item', item: stac.item, stacUrl: stac.stacUrl, aoi: ctx.aoi }),
      });
    }
    for (const o of offers.filter((x) => !x.refusal)) {
      items.push({
        label: `$(file-media) ${o.asset.name}`,
        description: `asset · ${o.asset.date}`,
        detail: `bands ${o.asset.band_list.join(', ')}`,
        make: () => ({ kind: 'asset', asset: o.asset }),
      });
    }
    const chosen = ctx.output;
    if (chosen) {
      items.push({
        label: `$(beaker) ${chosen.run.name} › ${chosen.outputName}`,
        description: 'the output you chose',
        make: () => ({ kind: 'insight-output', insight: chosen.run, outputName: chosen.outputName }),
      });
    }
    for (const ins of ctx.insights.filter((x) => isFinishedRun(x))) {
      for (const out of ins.output.filter((x) => x.format === 'raster' && x.value && !(chosen && chosen.run.id === ins.id && chosen.outputName === x.name))) {
        items.push({
          label: `$(beaker) ${ins.name} › ${out.name}`,
          description: `insight output · ${ins.block ? `${ins.block.name} ${ins.block.version}` : 'block not stated'} · ${dateTime(ins.created_at)}`,
          make: () => ({ kind: 'insight-output', insight: ins, outputName: out.name }),
        });
      }
    }
    if (!required) items.push(SKIP_ITEM);
    if (items.length === 0) {
      const why = offers.length === 0
        ? `AOI "${ctx.aoi.name}" has no assets and no insight outputs`
        : offers.map((o) => `asset "${o.asset.name}" ${o.refusal}`).join('; ');
      throw new Refused(`no asset or insight output can feed raster input "${def.name}"${def.properties?.bands ? ` (needs bands ${def.properties.bands.join(', ')})` : ''}: ${why}.`);
    }
    return pickChoice(services, items, title, placeHolder);
  }

  if (def.format === 'vector') {
    const lineage = ctx.assets.filter((a) => a.path);
    if (lineage.length === 0) {
      if (!required) return { kind: 'skip' };
      throw new Refused(`vector input "${def.name}" needs an asset_source, and AOI "${ctx.aoi.name}" has no asset to name.`);
    }
    const pickLineage = async (): Promise<Asset> => {
      if (lineage.length === 1) return lineage[0];
      const items = lineage.map((a) => ({ label: a.name, description: `${a.date} · ${a.band_list.join(', ')}`, asset: a }));
      return need(await services.ui.pick(items, { title, placeHolder: `asset_source of "${def.name}": which asset does the vector go with?`, ignoreFocusOut: true })).asset;
    };
    const items: ChoiceItem[] = [
      { label: '$(globe) AOI geometry', description: ctx.aoi.name, make: async () => ({ kind: 'aoi-geometry', aoi: ctx.aoi, asset: await pickLineage() }) },
      {
        label: '$(file) GeoJSON file…',
        make: async () => {
          const uris = need(await services.ui.openDialog({ title: `${def.name}: GeoJSON file`, canSelectMany: false, filters: { GeoJSON: ['geojson', 'json'] } }));
          const uri = need(uris[0]);
          const label = path.basename(uri.fsPath);
          let geojson: unknown;
          try {
            geojson = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'));
          } catch (err) {
            throw new Refused(`${label} is not readable JSON (${err instanceof Error ? err.message : String(err)}).`);
          }
          const check = checkVectorGeoJson(geojson);
          if (!check.ok) throw new Refused(`${label}: ${check.reason}.`);
          return { kind: 'geojson', geojson, label, aoi: ctx.aoi, asset: await pickLineage() };
        },
      },
    ];
    if (!required) items.push(SKIP_ITEM);
    return pickChoice(services, items, title, placeHolder);
  }

  if (def.format === 'boolean' || (def.type === 'boolean' && kinds.includes('text'))) {
    const items: ChoiceItem[] = [
      { label: 'true', make: () => ({ kind: 'text', text: 'true' }) },
      { label: 'false', make: () => ({ kind: 'text', text: 'false' }) },
    ];
    if (!required) items.push(SKIP_ITEM);
    return pickChoice(services, items, title, placeHolder);
  }

  if (kinds.includes('text')) {
    const kind = scalarKindOf(def.format, def.type) ?? 'string';
    const hint = kind === 'date' ? 'YYYY-MM-DD or an RFC 3339 date-time' : kind === 'number' ? 'a number' : 'text';
    const text = need(
      await services.ui.input({
        title,
        prompt: `${def.description || def.name} (${hint})${required ? '' : ' — leave empty to skip'}`,
        placeHolder: kind === 'date' ? new Date().toISOString().slice(0, 10) : undefined,
        ignoreFocusOut: true,
        validateInput: (v) => {
          if (!required && v.trim() === '') return undefined;
          if (required && v.trim() === '') return `${def.name} is required`;
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
  throw new Refused(`input "${def.name}" has format "${def.format}", which the builder does not know (raster, vector, date, number, string, boolean).`);
}

async function pickChoice(services: ExtensionServices, items: ChoiceItem[], title: string, placeHolder: string): Promise<InputChoice> {
  const picked = need(await services.ui.pick(items, { title, placeHolder, matchOnDescription: true, ignoreFocusOut: true }));
  return need(await picked.make?.());
}

async function askName(services: ExtensionServices, folder: vscode.WorkspaceFolder, suggestion: string): Promise<string | undefined> {
  const value = suggestion.replace(/[\\/:*?"<>|]/g, '-').replace(/\s+/g, '-').toLowerCase();
  for (;;) {
    const name = await services.ui.input({
      title: `${TITLE}: name`,
      prompt: 'The insight\'s name; the file is <name>.insight.json in the workspace folder',
      value,
      ignoreFocusOut: true,
      validateInput: (v) => checkInsightName(v),
    });
    if (name === undefined) return undefined;
    const uri = vscode.Uri.joinPath(folder.uri, insightFileName(name));
    const exists = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
    if (!exists) return name;
    const answer = await services.ui.message('warning', `${insightFileName(name)} already exists. Replace it?`, { modal: true }, 'Replace');
    if (answer === 'Replace') return name;
  }
}
