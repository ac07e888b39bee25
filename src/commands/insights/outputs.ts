/**
 * Commands on an insight output row: open it (a vector output as a GeoJSON document, any
 * other as its value and properties), draw it on the map (a vector output's features, a
 * raster output as an imagery layer coloured by its classes), and "Use Output as Input…",
 * which feeds a raster output into an insight input file by rule 3 of the interface.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Insight, InsightOutput } from '../../api';
import type { InsightOutputNode } from '../../explorer/nodes/insightRuns';
import { buildInputValue } from '../../insights/build';
import { isInsightDocument, layoutFor, rememberAoi, rememberedAoi } from '../../insights/editor/documents';
import { jsonc } from '../../insights/jsonc';
import { isFinishedRun, outputKind } from '../../api/insightRunState';
import type { SpecSource } from '../../insights/specSource';
import { aoiFeature, insightOutputFeatures } from '../../panels/mapData';
import { insightOutputSpec } from '../../panels/imagery/specs';
import { showImageryLayer } from '../imagery';
import type { CommandServices } from '../services';
import { inStep } from '../../ui/showError';
import { runCommand } from '../../ui/runCommand';
import { busy } from './pickers';
import { showDocument, type RunDocuments } from './runDocuments';

async function needOutput(services: CommandServices, given: InsightOutputNode | undefined, action: string): Promise<InsightOutputNode | undefined> {
  if (given) return given;
  await services.ui.message('info', l10n.t('Pick an output under an insight run in the Projects view to {0}.', action), {});
  return undefined;
}

function title(node: InsightOutputNode): string {
  return l10n.t('{0} of {1}', node.output.name, node.run.record.name);
}

/** A vector output as a GeoJSON document; any other as a JSON document of its value and properties. */
export async function openOutput(services: CommandServices, docs: RunDocuments, given: InsightOutputNode | undefined): Promise<vscode.TextEditor | undefined> {
  const node = await needOutput(services, given, l10n.t('open it'));
  if (!node) return undefined;
  const { output: o, run } = node;
  const segments = [run.aoi.aoi_id, run.record.id];
  if (outputKind(o) === 'vector') {
    const fc = await inStep(
      (reason) => l10n.t('Cannot open {0}: {1}.', title(node), reason),
      () => busy(l10n.t('Reading {0}…', title(node)), async () => (await services.connection.getClient()).outputGeoJson(o.value)),
    );
    return showDocument(docs.put([...segments, `${o.name}.geojson`], `${JSON.stringify(fc, null, 2)}\n`), 'json');
  }
  const { name, format, type, value, description, properties } = o;
  return showDocument(
    docs.put([...segments, `${o.name}.output.json`], `${JSON.stringify({ name, format, type, description, value, properties }, null, 2)}\n`),
    'json',
  );
}

/**
 * A vector output's features on the map's "Insight outputs" layer; a raster output as an
 * imagery layer (its classes in the colours its properties declare, with their legend).
 * Resolves to the number of features drawn, or to the imagery layer's id.
 */
export async function showOutputOnMap(services: CommandServices, given: InsightOutputNode | undefined): Promise<number | string | undefined> {
  const node = await needOutput(services, given, l10n.t('show it on the map'));
  if (!node) return undefined;
  const { output: o, run } = node;
  const kind = outputKind(o);
  if (kind === 'raster') return showRasterOutput(services, node);
  if (kind !== 'vector') {
    await services.ui.message(
      'info',
      o.format
        ? l10n.t('{0} is {1}; only raster and vector (GeoJSON) outputs are drawn on the map.', title(node), o.format)
        : l10n.t('{0} is of an unknown format; only raster and vector (GeoJSON) outputs are drawn on the map.', title(node)),
      {},
    );
    return undefined;
  }
  const features = await inStep(
    (reason) => l10n.t('Cannot show {0} on the map: {1}.', title(node), reason),
    async () =>
      insightOutputFeatures(
        run.record,
        o.name,
        await busy(l10n.t('Reading {0}…', title(node)), async () => (await services.connection.getClient()).outputGeoJson(o.value)),
      ),
  );
  if (features.length === 0) {
    await services.ui.message('info', l10n.t('{0} holds no features.', title(node)), {});
    return 0;
  }
  // The AOI's outline gives the output its context, and the view its extent.
  const panel = services.panels.showMap();
  panel.showTarget({ layer: 'aois', features: [aoiFeature(run.aoi)], sources: [{ kind: 'aoi', id: run.aoi.aoi_id }] }, { fit: true });
  panel.showTarget(
    { layer: 'insightOutputs', features, sources: [{ kind: 'insightOutput', aoiId: run.aoi.aoi_id, runId: run.record.id, output: o.name }] },
    { fit: false },
  );
  return features.length;
}

function showRasterOutput(services: CommandServices, node: InsightOutputNode): string {
  const { output: o, run } = node;
  const layer = insightOutputSpec(o, {
    aoiId: run.aoi.aoi_id,
    runId: run.record.id,
    title: title(node),
    legendTitle: o.description?.trim() || o.name,
    geometry: run.aoi.geometry,
  });
  showImageryLayer(services, layer);
  return 'note' in layer ? layer.note.id : layer.spec.id;
}

/**
 * "Use Output as Input…": adds the raster output to the insight input file in the editor (as
 * the raster input the person picks) or starts a new file with it offered first. Rule 3:
 * `value` = the output's storage URL, `asset_source` `model_output` with the run's id, the
 * output's `properties` copied.
 */
export async function useOutputAsInput(services: CommandServices, specs: SpecSource, given: InsightOutputNode | undefined): Promise<vscode.Uri | undefined> {
  const node = await needOutput(services, given, l10n.t('use it as an input'));
  if (!node) return undefined;
  const { output: o, run } = node;
  if (outputKind(o) !== 'raster' || !o.value || !isFinishedRun(run.record)) {
    await services.ui.message(
      'info',
      l10n.t("{0} cannot feed an insight input: only a finished run's raster output with a storage URL can (rule 3).", title(node)),
      {},
    );
    return undefined;
  }
  const open = vscode.window.visibleTextEditors.map((e) => e.document).filter(isInsightDocument);
  const active = vscode.window.activeTextEditor?.document;
  const files = active && isInsightDocument(active) ? [active, ...open.filter((d) => d !== active)] : open;
  let target: vscode.TextDocument | undefined;
  if (files.length > 0) {
    const picked = await services.ui.pick(
      [
        ...files.map((d) => ({ label: l10n.t('Add to {0}', vscode.workspace.asRelativePath(d.uri)), doc: d as vscode.TextDocument | undefined })),
        { label: l10n.t('New insight input from a block…'), doc: undefined },
      ],
      {
        title: l10n.t('Use {0} as an input', title(node)),
        placeHolder: l10n.t('Add it to an open insight input file, or start a new one'),
        ignoreFocusOut: true,
      },
    );
    if (!picked) return undefined;
    target = picked.doc;
  }
  if (!target) {
    return runCommand('newInsightInput', { insightOutput: { run: run.record, outputName: o.name } }) as Thenable<vscode.Uri | undefined>;
  }
  return addToFile(services, specs, target, run.record, o, run.aoi.aoi_id);
}

async function addToFile(
  services: CommandServices,
  specs: SpecSource,
  doc: vscode.TextDocument,
  run: Insight,
  o: InsightOutput,
  aoiId: string,
): Promise<vscode.Uri | undefined> {
  const file = vscode.workspace.asRelativePath(doc.uri);
  const remembered = rememberedAoi(services.context.workspaceState, doc.uri);
  if (remembered && remembered !== aoiId) {
    await services.ui.message(
      'warning',
      l10n.t('{0} is for another AOI; an output of {1} can only feed a run on the same AOI. Start a new file instead.', file, run.name),
      {},
    );
    return undefined;
  }
  // jsonc's parse does not throw: a file that does not parse names no block, which the next check says
  const parsed = jsonc().parse(doc.getText()) as { block?: { name?: unknown; version?: unknown }; input?: unknown } | undefined;
  const bname = parsed?.block?.name;
  const bver = parsed?.block?.version;
  if (typeof bname !== 'string' || typeof bver !== 'string') {
    await services.ui.message('warning', l10n.t('{0} names no block (block.name and block.version); fix that first.', file), {});
    return undefined;
  }
  const lookup = await specs.lookup(bname, bver);
  if (lookup.status !== 'found') {
    await services.ui.message('warning', l10n.t("Cannot read the spec of block {0} {1} ({2}); fix the file's block first.", bname, bver, lookup.status), {});
    return undefined;
  }
  const rasters = lookup.spec.inputs.filter((d) => d.format === 'raster');
  if (rasters.length === 0) {
    await services.ui.message('info', l10n.t('Block {0} {1} takes no raster input.', bname, bver), {});
    return undefined;
  }
  const inputs = Array.isArray(parsed?.input) ? (parsed?.input as { name?: unknown }[]) : [];
  const def =
    rasters.length === 1
      ? rasters[0]
      : (
          await services.ui.pick(
            rasters.map((d) => ({
              label: d.name,
              description: d.description,
              detail: inputs.some((i) => i?.name === d.name) ? l10n.t('replaces the value it has') : undefined,
              def: d,
            })),
            { title: l10n.t('Use {0} of {1} in {2}', o.name, run.name, file), placeHolder: l10n.t('Which raster input does it feed?'), ignoreFocusOut: true },
          )
        )?.def;
  if (!def) return undefined;
  const built = buildInputValue(def, { kind: 'insight-output', insight: run, outputName: o.name });
  if (!built.ok || !built.value) {
    await services.ui.message(
      'error',
      l10n.t('Cannot use {0} of {1} as {2}: {3}', o.name, run.name, def.name, built.ok ? l10n.t('nothing to add') : built.reason),
      {},
    );
    return undefined;
  }
  const text = doc.getText();
  const layout = layoutFor(doc);
  const at = inputs.findIndex((i) => i?.name === def.name);
  const edits =
    at >= 0
      ? jsonc().modify(text, ['input', at], built.value, { formattingOptions: layout })
      : jsonc().modify(text, ['input', inputs.length], built.value, { formattingOptions: layout, isArrayInsertion: true });
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
  if (!(await vscode.workspace.applyEdit(edit))) return undefined;
  if (!remembered) await rememberAoi(services.context.workspaceState, doc.uri, aoiId);
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc.uri;
}
