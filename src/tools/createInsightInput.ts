/**
 * Tool: a `*.insight.json` file from a block, an AOI, an asset and values, built by the same
 * pure builder as New Insight Input… (rules 1 to 6 of the interface) and written, remembered
 * and opened by the same function. Refuses in words when an input cannot be filled.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { collect, type Aoi, type Asset, type InputDefinition } from '../api';
import { writeInsightInput } from '../commands/insights/newInsightInput';
import { insightSlug } from '../commands/insights/insightSlug';
import { buildInsightDocument, checkInsightName, choiceKindsFor, insightFileName, isRequired, offerAssets, type InputChoice } from '../insights/build';
import { isObj } from '../api/shape';
import { findBlock } from './blocks';
import { Fields, type Read } from './input';
import { findAoi } from './lookup';
import { closestNames, nameMatcher } from '../nameMatch';
import { answer, dataNotice, quoted } from './text';
import { tool, type ToolServices } from './tool';

interface Input {
  block: string;
  version?: string;
  aoi: string;
  asset?: string;
  values: Record<string, unknown>;
  name?: string;
}

export function readCreateInput(input: unknown): Read<Input> {
  const f = new Fields(input);
  const values = f.raw('values');
  if (values !== undefined && !isObj(values)) f.problems.push(l10n.t('Field "values" must be an object from input name to value.'));
  const name = f.string('name', false, 100);
  const bad = name !== undefined ? checkInsightName(name) : undefined;
  if (bad) f.problems.push(l10n.t('Field "name": {0}', bad));
  return f.done<Input>({
    block: f.string('block', true, 200),
    version: f.string('version', false, 50),
    aoi: f.string('aoi', true, 200),
    asset: f.string('asset', false, 200),
    values: isObj(values) ? values : {},
    name,
  });
}

/** The choice for one input, or why there is none. */
function choiceFor(def: InputDefinition, aoi: Aoi, assets: readonly Asset[], asset: Asset | undefined, values: Record<string, unknown>): InputChoice | string {
  const required = isRequired(def);
  const kinds = choiceKindsFor(def.format, required);
  const given = values[def.name];
  if (def.format === 'raster') {
    if (!asset) {
      if (!required) return { kind: 'skip' };
      const usable = offerAssets(def, assets).filter((o) => !o.refusal);
      return usable.length
        ? l10n.t(
            'raster input {0} needs an AOI asset: give "asset", one of {1}.',
            quoted(def.name),
            usable
              .slice(0, 12)
              .map((o) => quoted(o.asset.name))
              .join(', '),
          )
        : l10n.t('raster input {0} needs an asset, and AOI {1} has none with the bands it needs.', quoted(def.name), quoted(aoi.name));
    }
    return { kind: 'asset', asset };
  }
  if (def.format === 'vector') {
    if (!required && given === undefined) return { kind: 'skip' };
    const lineage = asset?.path ? asset : assets.find((a) => a.path);
    if (!lineage) return l10n.t('vector input {0} must name the AOI asset it goes with, and AOI {1} has none.', quoted(def.name), quoted(aoi.name));
    return { kind: 'aoi-geometry', aoi, asset: lineage };
  }
  if (kinds.includes('text')) {
    if (given === undefined || given === null || given === '') {
      if (!required) return { kind: 'skip' };
      return l10n.t(
        'missing a value for input {0} ({1}{2}): add it to "values".',
        quoted(def.name),
        def.format,
        def.description ? `, ${quoted(def.description)}` : '',
      );
    }
    if (typeof given === 'object') return l10n.t('the value of input {0} must be text, a number or true/false.', quoted(def.name));
    return { kind: 'text', text: String(given) };
  }
  if (!required) return { kind: 'skip' };
  return l10n.t('input {0} has format {1}, which the builder does not know.', quoted(def.name), quoted(def.format));
}

export const createInsightInputTool = (services: ToolServices) =>
  tool<Input>({
    kind: 'writes',
    action: l10n.t('Create an insight input'),
    read: readCreateInput,
    progress: (i) => l10n.t('Building an insight input for {0} on {1}…', i.block, i.aoi),
    confirm: (i) => ({
      title: l10n.t('Create an insight input file'),
      message: l10n.t(
        'EO Imagery writes {0} in the workspace folder and opens it. Nothing is run.',
        insightFileName(i.name ?? insightSlug(`${i.block}-${i.aoi}`)),
      ),
    }),
    run: async (input) => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (!folder) return l10n.t('No folder is open: the insight input file is written to the workspace folder. Ask the person to open a folder.');
      const client = await services.connection.getClient();
      const [block, aoi] = await Promise.all([findBlock(client, input.block, input.version), findAoi(client, input.aoi)]);
      if (!block.ok) return block.reason;
      if (!aoi.ok) return aoi.reason;
      const assets = await collect(client.aois.iterateAssets(aoi.value.aoi_id, { pageSize: 100, cap: 1000 }));
      let asset: Asset | undefined;
      if (input.asset) {
        const wanted = input.asset;
        const named = nameMatcher(wanted);
        asset = assets.find((a) => a.id === wanted || named(a.name));
        if (!asset) {
          const near = closestNames(
            input.asset,
            assets.map((a) => a.name),
          );
          return l10n.t(
            'AOI {0} has no asset named {1}. The closest names: {2}.',
            quoted(aoi.value.name),
            quoted(input.asset),
            near.map((n) => quoted(n)).join(', ') || '—',
          );
        }
      }
      const spec = block.value.spec;
      const choices = new Map<string, InputChoice>();
      const problems: string[] = [];
      for (const def of spec.inputs) {
        const c = choiceFor(def, aoi.value, assets, asset, input.values);
        if (typeof c === 'string') problems.push(c);
        else choices.set(def.name, c);
      }
      const unknown = Object.keys(input.values).filter((k) => !spec.inputs.some((d) => d.name === k));
      if (unknown.length) problems.push(l10n.t('block {0} has no input named {1}.', quoted(spec.name), unknown.map((k) => quoted(k)).join(', ')));
      if (problems.length) return answer(l10n.t('No file was written:'), ...problems.map((p) => `- ${p}`));
      const name = input.name ?? insightSlug(`${spec.name}-${aoi.value.name}`);
      const built = buildInsightDocument(name, spec, choices);
      if (!built.ok) return l10n.t('No file was written: {0}', quoted(built.reason, 400));
      const target = vscode.Uri.joinPath(folder.uri, insightFileName(built.value.name));
      const exists = await vscode.workspace.fs.stat(target).then(
        () => true,
        () => false,
      );
      if (exists) return l10n.t('No file was written: {0} already exists. Call again with another "name".', quoted(insightFileName(built.value.name)));
      const uri = await writeInsightInput(services, folder, built.value, aoi.value);
      return answer(
        dataNotice(),
        l10n.t(
          'Wrote and opened {0}: block {1} {2} on AOI {3}, {4} inputs.',
          quoted(vscode.workspace.asRelativePath(uri)),
          quoted(spec.name),
          quoted(spec.version),
          quoted(aoi.value.name),
          built.value.input.length,
        ),
        l10n.t('Next: validate it, estimate its run, or start it (the person confirms the token cost).'),
      );
    },
  });
