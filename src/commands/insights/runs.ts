/**
 * Commands on an insight run row: show its outputs, open its input (read-only, or as a new
 * editable `.insight.json` for a re-run), download it, delete it.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { ApiError, isNotSupported, type Aoi, type Insight } from '../../api';
import { AoiNode } from '../../explorer/nodes/projects';
import { InsightOutputNode, InsightRunNode } from '../../explorer/nodes/insightRuns';
import { insightSlug } from './insightSlug';
import { insightFileName, serializeInsightDocument, type InsightInputDocument } from '../../insights/build/document';
import { rememberAoi } from '../../insights/editor/documents';
import type { CommandServices } from '../services';
import { orReason, unlessNotSupported } from '../../ui/showError';
import type { RunRef } from '../args';
import { noteUnreadable } from '../../ui/unreadable';
import { downloadToFolder, freshLink } from '../catalog/downloadFile';
import { busy } from './pickers';
import { showDocument, type RunDocuments } from './runDocuments';
import { downloadWithResume } from '../catalog/downloadProgress';

/** The run row a command was given, or the selected one. */
export function runNodeOf(services: CommandServices, given: InsightRunNode | undefined): InsightRunNode | undefined {
  if (given) return given;
  const selected = services.explorer?.selected('projects')[0];
  return selected instanceof InsightRunNode ? selected : undefined;
}

async function needRun(services: CommandServices, given: InsightRunNode | undefined, action: string): Promise<InsightRunNode | undefined> {
  const node = runNodeOf(services, given);
  if (!node) await services.ui.message('info', l10n.t('Select an insight run in the Projects view to {0}.', action), {});
  return node;
}

/**
 * Shows run `id` of `aoi` in the Projects view (AOI expanded, "Insight runs" loaded, the run
 * put first if the list does not have it yet), selected and, when asked, expanded.
 */
export async function revealRun(services: CommandServices, aoi: Aoi, id: string, expand = false): Promise<InsightRunNode | undefined> {
  const explorer = services.explorer;
  if (!explorer) return undefined;
  const aoiNode = await explorer.reveal('aoi', aoi.aoi_id, { expand: true });
  if (!(aoiNode instanceof AoiNode)) return undefined;
  const group = aoiNode.insightRuns;
  const view = explorer.providers.projects.view;
  if (view) await view.reveal(group, { expand: true, select: false, focus: false });
  await group.list.children();
  let node = group.list.find(id);
  if (!node) {
    const client = await services.connection.getClient();
    const fresh = (await client.insightRuns.list(aoi.aoi_id, { id })).find((r) => r.id === id);
    if (!fresh) return undefined;
    node = group.list.pin(fresh);
  }
  group.ctx.changed('projects', group);
  if (view) await view.reveal(node, { select: true, focus: false, expand });
  // the rows it expands to may lie below the fold: the last one is scrolled into view, and the
  // run row again (it stays in view when the outputs fit under it)
  const below = expand && view ? (await node.getChildren()).filter((k) => k instanceof InsightOutputNode) : [];
  if (view && below.length) {
    await view.reveal(below[below.length - 1], { select: false, focus: false });
    await view.reveal(node, { select: true, focus: false });
  }
  return node instanceof InsightRunNode ? node : undefined;
}

/**
 * "Show Outputs": the run selected and expanded, its outputs (or its error) below it. Takes a
 * run row, or `{aoiId, id}` (a click on a map feature of the run's output).
 */
export async function showOutputs(services: CommandServices, run: { node: InsightRunNode } | { ref: RunRef } | undefined): Promise<InsightRunNode | undefined> {
  if (run && 'ref' in run) {
    const aoi = await (await services.connection.getClient()).aois.get(run.ref.aoiId);
    return revealRun(services, aoi, run.ref.id, true);
  }
  const node = await needRun(services, run?.node, l10n.t('show its outputs'));
  return node && revealRun(services, node.aoi, node.record.id, true);
}

/** The run's input as a read-only JSON document. */
export async function openInput(services: CommandServices, docs: RunDocuments, given: InsightRunNode | undefined): Promise<vscode.TextEditor | undefined> {
  const node = await needRun(services, given, l10n.t('open its input'));
  if (!node) return undefined;
  const r = node.record;
  const uri = docs.put([node.aoi.aoi_id, r.id, `${insightSlug(r.name)}.input.json`], `${JSON.stringify(r.input, null, 2)}\n`);
  return showDocument(uri, 'json');
}

/**
 * "Open Input as New File": an editable `.insight.json` holding `{name, block, input}` of the
 * run, remembered for the run's AOI, so Run prices and runs it again.
 */
export async function openInputAsNewFile(services: CommandServices, given: InsightRunNode | undefined): Promise<vscode.Uri | undefined> {
  const node = await needRun(services, given, l10n.t('open its input as a new file'));
  if (!node) return undefined;
  const r = node.record;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    await services.ui.message('warning', l10n.t('Open a folder first: the insight input file is written to the workspace.'), {});
    return undefined;
  }
  const block = r.block?.name ? r.block : await pickBlockFor(services, r);
  if (!block) return undefined;
  const base = insightSlug(`${r.name}-rerun`);
  let name = base;
  for (let k = 2; await exists(vscode.Uri.joinPath(folder.uri, insightFileName(name))); k++) name = `${base}-${k}`;
  const doc: InsightInputDocument = { name, block, input: r.input };
  const uri = vscode.Uri.joinPath(folder.uri, insightFileName(name));
  await vscode.workspace.fs.writeFile(uri, Buffer.from(serializeInsightDocument(doc), 'utf8'));
  await rememberAoi(services.context.workspaceState, uri, node.aoi.aoi_id);
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}

/** The run record does not name its block (the service did not say): ask which one ran. */
async function pickBlockFor(services: CommandServices, r: Insight): Promise<{ name: string; version: string } | undefined> {
  const client = await services.connection.getClient();
  const blocks = await busy(l10n.t('Loading insight blocks…'), () => client.blocks.list({ mode: 'insight' }));
  noteUnreadable(services.ui, l10n.t('insight blocks'), blocks);
  const picked = await services.ui.pick(
    blocks.map((b) => ({
      label: b.display_name ?? b.spec.name,
      description: `${b.spec.name} ${b.spec.version}`,
      block: { name: b.spec.name, version: b.spec.version },
    })),
    {
      title: l10n.t('Open input of {0} as a new file', r.name),
      placeHolder: l10n.t('The service does not say which block ran this insight: pick it'),
      ignoreFocusOut: true,
    },
  );
  return picked?.block;
}

/** Delete, after a modal confirmation; a service without the endpoint says so. */
export async function deleteRun(services: CommandServices, given: InsightRunNode | undefined): Promise<boolean> {
  const node = await needRun(services, given, l10n.t('delete it'));
  if (!node) return false;
  const r = node.record;
  const del = l10n.t('Delete');
  const answer = await services.ui.message(
    'warning',
    l10n.t('Delete insight run {0} on {1}?', r.name, node.aoi.name),
    { modal: true, detail: l10n.t('Its outputs go with it. This cannot be undone.') },
    del,
  );
  if (answer !== del) return false;
  try {
    const client = await services.connection.getClient();
    await busy(l10n.t('Deleting {0}…', r.name), () => client.insightRuns.delete(node.aoi.aoi_id, r.id, node.aoi.project_id));
    services.log.info(`Deleted insight run ${r.id} on AOI ${node.aoi.aoi_id}`);
    services.explorer?.refreshNode(node.group);
    void services.ui.message('info', l10n.t('Deleted insight run {0}.', r.name), {});
    return true;
  } catch (err) {
    // Recovers from a service without the delete endpoint (optional) and from a run deleted elsewhere.
    if (isNotSupported(err)) {
      // A 404 also comes for a run deleted elsewhere: the list tells the two apart.
      const gone = err instanceof ApiError && err.status === 404 && (await stillListed(services, node)) === false;
      services.explorer?.refreshNode(node.group);
      await services.ui.message(
        'warning',
        gone ? l10n.t('Insight run {0} was already deleted.', r.name) : l10n.t('This service does not support deleting insight runs.'),
        {},
      );
      return false;
    }
    throw err;
  }
}

/** Packages the run (every input and output) and saves it into a folder the person picks. */
export async function downloadRun(services: CommandServices, given: InsightRunNode | undefined): Promise<string | undefined> {
  const node = await needRun(services, given, l10n.t('download it'));
  if (!node) return undefined;
  const r = node.record;
  const client = await services.connection.getClient();
  const pkg = await unlessNotSupported(services, l10n.t('This service does not support downloading insight runs.'), () =>
    busy(l10n.t('Packaging {0}…', r.name), () => client.insightRuns.download(node.aoi.aoi_id, r.id, {})),
  );
  if (!pkg) return undefined;
  const url = pkg.signed_url;
  if (!url) {
    await services.ui.message('error', l10n.t('The service answered without a download link for {0}. Try again later.', r.name), {});
    return undefined;
  }
  const folder = await services.ui.openDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: l10n.t('Save Here'),
    title: l10n.t('Folder to save {0} in', r.name),
  });
  if (!folder?.[0]) return undefined;
  // says itself how it ended (Resume, or the reason with a fresh download to try)
  const file = await downloadWithResume(services, r.name, (signal, onProgress, resume) =>
    downloadToFolder(url, folder[0].fsPath, {
      signal,
      resume,
      otherHosts: services.connection.otherHosts,
      fallbackName: `${insightSlug(r.name)}.zip`,
      onProgress,
      // Packaging again gives a fresh link when this one expired.
      renewLink: freshLink(async () => (await client.insightRuns.download(node.aoi.aoi_id, r.id, {})).signed_url),
    }),
  );
  return file;
}

async function stillListed(services: CommandServices, node: InsightRunNode): Promise<boolean | undefined> {
  const listed = await orReason(async () =>
    (await (await services.connection.getClient()).insightRuns.list(node.aoi.aoi_id, { id: node.record.id })).some((x) => x.id === node.record.id),
  );
  // a list that cannot be read: unknown, and the caller says "not supported"
  return 'value' in listed ? listed.value : undefined;
}

function exists(uri: vscode.Uri): Thenable<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}
