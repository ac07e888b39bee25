import { jsonc } from '../../insights/jsonc';
import vscode = require('vscode');
import { l10n } from 'vscode';
import { ApiError, collect, mayHaveActed, type Aoi, type EoClient, type Insight, type InsightRunRequest } from '../../api';
import type { InsightDiagnostics } from '../../insights/editor/diagnostics';
import { isInsightDocument, rememberAoi, rememberedAoi } from '../../insights/editor/documents';
import { insightValue, parseInsight, readBlockRef } from '../../insights/validate/validate';
import type { InsightInputDocument } from '../../insights/build/document';
import type { ExtensionServices } from '../../services';
import type { CommandServices } from '../services';
import { describeError, inStep, unlessNotSupported } from '../../ui/showError';
import { confirmSpend } from '../../ui/confirmSpend';
import { attempt } from '../../ui/submit';
import { revealRun } from './runs';
import { askWhatHappened, idsBefore, newestNew } from '../lostAnswer';
import { busy, pickAoi } from './pickers';

export function notSupportedMessage(): string {
  return l10n.t('This service does not support running insights from the editor.');
}

async function documentFor(uri: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  if (uri) return vscode.workspace.openTextDocument(uri);
  const active = vscode.window.activeTextEditor?.document;
  return active && isInsightDocument(active) ? active : undefined;
}

/** "Validate against block spec": revalidates now and says how it went. */
export async function validateInsightCommand(services: ExtensionServices, diagnostics: InsightDiagnostics, uri?: vscode.Uri): Promise<number | undefined> {
  const doc = await documentFor(uri);
  if (!doc) {
    await services.ui.message('info', l10n.t('Open an .insight.json file to validate it.'), {});
    return undefined;
  }
  const items = await diagnostics.validate(doc, { explicit: true });
  const errors = items.filter((d) => d.severity === 'error').length;
  const note = items.find((d) => d.code === 'spec-needs-sign-in' || d.code === 'spec-unavailable');
  const text =
    errors === 0
      ? note
        ? l10n.t('{0}: no problems in the file itself ({1}).', fileLabel(doc), note.message)
        : l10n.t('{0}: no problems against the block spec.', fileLabel(doc))
      : errors === 1
        ? l10n.t('{0}: 1 problem; see the Problems view.', fileLabel(doc))
        : l10n.t('{0}: {1} problems; see the Problems view.', fileLabel(doc), errors);
  void services.ui.message(errors === 0 ? 'info' : 'warning', text, {});
  return errors;
}

function fileLabel(doc: vscode.TextDocument): string {
  return doc.uri.path.split('/').pop() ?? doc.uri.toString();
}

export interface Prepared {
  client: EoClient;
  aoi: Aoi;
  body: InsightRunRequest;
  doc: vscode.TextDocument;
}

/**
 * Shared by Estimate and Run: the file must be valid against the spec (a run with a broken
 * file would only fail on the service), and the AOI is the one the file was built for or one
 * the person picks.
 */
async function prepare(
  services: ExtensionServices,
  diagnostics: InsightDiagnostics,
  uri: vscode.Uri | undefined,
  action: 'estimate' | 'run',
): Promise<Prepared | undefined> {
  const verb = action === 'run' ? l10n.t('run') : l10n.t('estimate');
  const doc = await documentFor(uri);
  if (!doc) {
    await services.ui.message('info', l10n.t('Open an .insight.json file to {0} it.', verb), {});
    return undefined;
  }
  const p = await prepareRun(services, diagnostics, doc, action, (client, file) =>
    pickAoi(services, client, action === 'run' ? l10n.t('Run {0}: AOI', file.name) : l10n.t('Estimate {0}: AOI', file.name)),
  );
  if (p && 'reason' in p) {
    await services.ui.message('warning', p.reason, {});
    return undefined;
  }
  return p;
}

/**
 * The run request an insight file makes, on the AOI it was built for or the one `askAoi`
 * gives (remembered for the file); `reason` when the file has problems. Undefined when no
 * AOI was given. Shared by the commands and the chat tools.
 */
export async function prepareRun(
  services: ExtensionServices,
  diagnostics: InsightDiagnostics,
  doc: vscode.TextDocument,
  action: 'estimate' | 'run',
  askAoi: (client: EoClient, file: InsightInputDocument) => Promise<Aoi | undefined>,
): Promise<Prepared | { reason: string } | undefined> {
  const verb = action === 'run' ? l10n.t('run') : l10n.t('estimate');
  const client = await services.connection.getClient();
  const items = await diagnostics.validate(doc, { explicit: true });
  const errors = items.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    return {
      reason:
        errors.length === 1
          ? l10n.t('{0} has 1 problem ({1}). Fix it before you {2}.', fileLabel(doc), errors[0].message, verb)
          : l10n.t('{0} has {1} problems (first: {2}). Fix them before you {3}.', fileLabel(doc), errors.length, errors[0].message, verb),
    };
  }
  // The validator's own parser: comments and trailing commas it accepts, Run accepts too.
  const parsed = parseInsight(doc.getText());
  const file = insightValue(parsed) as InsightInputDocument | undefined;
  if (!file || !readBlockRef(parsed)) {
    return { reason: l10n.t('{0} is not valid JSON (see the Problems view). Fix it before you {1}.', fileLabel(doc), verb) };
  }
  let aoi: Aoi | undefined;
  const remembered = rememberedAoi(services.context.workspaceState, doc.uri);
  if (remembered) {
    aoi = await busy(l10n.t('Loading the AOI…'), () => client.aois.get(remembered)).then(
      (a) => a,
      (err: unknown) => {
        // The AOI is gone or no longer ours: ask again instead of failing.
        if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return undefined;
        throw err;
      },
    );
  }
  if (!aoi) {
    aoi = await askAoi(client, file);
    if (!aoi) return undefined;
    await rememberAoi(services.context.workspaceState, doc.uri, aoi.aoi_id);
  }
  const body: InsightRunRequest = { name: file.name, project_id: aoi.project_id, block: file.block, input: file.input };
  return { client, aoi, body, doc };
}

export async function estimateInsightCommand(services: ExtensionServices, diagnostics: InsightDiagnostics, uri?: vscode.Uri): Promise<number | undefined> {
  return unlessNotSupported(services, notSupportedMessage(), async () => {
    const p = await prepare(services, diagnostics, uri, 'estimate');
    if (!p) return undefined;
    const tokens = await busy(l10n.t('Estimating {0}…', p.body.name), () => p.client.insightRuns.estimate(p.aoi.aoi_id, p.body));
    void services.ui.message(
      'info',
      l10n.t(
        'Running {0} ({1} {2}) on {3} would cost about {4} tokens.',
        p.body.name,
        p.body.block.name,
        p.body.block.version,
        p.aoi.name,
        formatTokens(tokens),
      ),
      {},
    );
    return tokens;
  });
}

/** Run insight: the file's request, then `confirmAndRun`. */
export async function runInsightCommand(services: CommandServices, diagnostics: InsightDiagnostics, uri?: vscode.Uri): Promise<string | undefined> {
  const p = await unlessNotSupported(services, notSupportedMessage(), () => prepare(services, diagnostics, uri, 'run'));
  if (!p) return undefined;
  const outcome = await confirmAndRun(services, p);
  return outcome.kind === 'started' ? outcome.id : undefined;
}

/** What became of a run the person was asked to confirm. */
export type RunOutcome =
  | { kind: 'started'; id: string; tokens: number; message?: string }
  | { kind: 'declined'; tokens: number }
  /** The service has no insight-run endpoints (said in a warning). */
  | { kind: 'unsupported' }
  /** The answer to the run was lost: nothing was started, or nobody can tell (both said). */
  | { kind: 'failed'; reason: string; tokens: number };

/**
 * Price, then run, in one step: the estimate is asked first and shown in the spend
 * confirmation (Cancel its default row, Run picked on purpose); the run is sent once, only on
 * that pick. An estimate
 * that fails stops here with its reason. The new run is then shown (and followed) under its
 * AOI's "Insight runs". The command and the chat tool both come here.
 */
export async function confirmAndRun(services: CommandServices, p: Prepared, note?: string): Promise<RunOutcome> {
  const { client, aoi, body } = p;
  const what = l10n.t('{0} ({1} {2}) on {3}', body.name, body.block.name, body.block.version, aoi.name);
  const tokens = await inStep(l10n.t('Pricing {0} (nothing was run)', what), () =>
    unlessNotSupported(services, notSupportedMessage(), () => busy(l10n.t('Pricing {0}…', body.name), () => client.insightRuns.estimate(aoi.aoi_id, body))),
  );
  if (tokens === undefined) return { kind: 'unsupported' };
  const run = l10n.t('Run');
  const spent = l10n.t('The tokens are spent when the run succeeds.');
  // Cancel is the default: no Enter left over from an earlier prompt (or a chat turn) starts the run
  const confirm = await confirmSpend(services.ui, {
    title: l10n.t('Run {0} for about {1} tokens?', what, formatTokens(tokens)),
    spend: run,
    cost: l10n.t('about {0} tokens', formatTokens(tokens)),
    summary: note ? [...note.split('\n'), spent] : [spent],
  });
  if (confirm !== run) return { kind: 'declined', tokens };
  const sent = await sendRun(services, p, what);
  if (sent.kind === 'again') return confirmAndRun(services, p, note);
  if (sent.kind !== 'started') return sent.kind === 'failed' ? { ...sent, tokens } : sent;
  const res = sent.res;
  services.log.info(`Insight ${res.id} started on AOI ${aoi.aoi_id} from ${p.doc.uri.fsPath}`);
  services.watcher.follow('insightRun', res.id, { parent: aoi.aoi_id, hint: { where: aoi.name } });
  void services.ui.message(
    'info',
    sent.lost
      ? l10n.t(
          "The answer was lost, but the service has the run: insight {0} started on {1} as {2}. Its progress shows under the AOI's Insight runs.",
          body.name,
          aoi.name,
          res.id,
        )
      : res.message
        ? l10n.t("Insight {0} started on {1}: {2}. Its progress shows under the AOI's Insight runs.", body.name, aoi.name, res.message)
        : l10n.t("Insight {0} started on {1}. Its progress shows under the AOI's Insight runs.", body.name, aoi.name),
    {},
  );
  // Showing the run is a courtesy after the run started: a failure there is logged, not shown.
  await revealRun(services, aoi, res.id).catch((err: unknown) => services.log.warn(`Could not show run ${res.id} in the Projects view: ${describeError(err)}`));
  return { kind: 'started', id: res.id, tokens, message: res.message };
}

type Sent =
  { kind: 'started'; res: { id: string; message?: string }; lost: boolean } | { kind: 'again' } | { kind: 'failed'; reason: string } | { kind: 'unsupported' };

/**
 * The one POST of a confirmed run. When its answer is lost the run is never sent again: the
 * service's runs on the AOI are listed and the new one with this name and block is looked for
 * (../lostAnswer.ts); "Run Again…" means price and confirm again.
 */
async function sendRun(services: CommandServices, p: Prepared, what: string): Promise<Sent> {
  const { client, aoi, body } = p;
  const before = await idsBefore(() => client.insightRuns.list(aoi.aoi_id), services, `the runs on ${aoi.aoi_id}`);
  const sentAt = Date.now();
  let outcome: Sent = { kind: 'failed', reason: l10n.t('the service did not start the run') };
  const same = (r: Insight): boolean => r.name === body.name && (!r.block || (r.block.name === body.block.name && r.block.version === body.block.version));
  const sent = await attempt(services, {
    action: l10n.t('Run insight'),
    send: () =>
      unlessNotSupported(services, notSupportedMessage(), () => busy(l10n.t('Starting {0}…', body.name), () => client.insightRuns.run(aoi.aoi_id, body))),
    refused: (err) => (outcome = { kind: 'failed', reason: l10n.t('The service refused the run: {0}', describeError(err)) }).reason,
    failed: async (err) => {
      outcome = { kind: 'failed', reason: describeError(err) };
      // Shown with its own way forward (never Retry): the service did not act on it.
      if (!mayHaveActed(err)) return false;
      // Never sent again: the service is asked what it did with the one POST.
      const lost = await askWhatHappened(services, err, async () => newestNew(await client.insightRuns.list(aoi.aoi_id), { before, sentAt }, same), {
        what: `the run ${body.name} on ${aoi.aoi_id}`,
        asking: l10n.t('No answer: asking the service whether {0} was started…', body.name),
        nothing: (f) => l10n.t('The service did not answer ({0}). It has no run of {1}: nothing was started. Run it again?', f, what),
        again: l10n.t('Run Again…'),
        unknown: (f, reason) =>
          l10n.t(
            "{0} may or may not have started ({1}), and the service could not be asked ({2}). Check the AOI's Insight runs before you try again, so you do not pay twice.",
            what,
            f,
            reason,
          ),
        check: { label: l10n.t('Show the AOI'), run: async () => services.explorer?.reveal('aoi', aoi.aoi_id, { expand: true }) },
      });
      if (lost.kind === 'placed') outcome = { kind: 'started', res: { id: lost.value.id }, lost: true };
      else outcome = lost.kind === 'nothing' && lost.again ? { kind: 'again' } : { kind: 'failed', reason: lost.reason };
      return true;
    },
  });
  if (!sent.ok) return outcome;
  return sent.value ? { kind: 'started', res: sent.value, lost: false } : { kind: 'unsupported' };
}

export function formatTokens(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/**
 * Quick fix "Add asset_source from an AOI asset…": pick the asset, then edit the input. `at`:
 * the file and the index of the input the quick fix was offered on.
 */
export async function addAssetSourceCommand(services: ExtensionServices, at: { uri: vscode.Uri; index: number } | undefined): Promise<boolean> {
  if (!at) return false;
  const { uri, index: inputIndex } = at;
  const doc = await vscode.workspace.openTextDocument(uri);
  const client = await services.connection.getClient();
  const remembered = rememberedAoi(services.context.workspaceState, uri);
  const aoi = remembered
    ? await busy(l10n.t('Loading the AOI…'), () => client.aois.get(remembered))
    : await pickAoi(services, client, l10n.t('Source of the input: AOI'));
  if (!aoi) return false;
  const assets = await busy(l10n.t('Loading assets of {0}…', aoi.name), () => collect(client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100, cap: 1000 })));
  const usable = assets.filter((a) => a.path);
  if (usable.length === 0) {
    await services.ui.message('info', l10n.t('AOI "{0}" has no image this input could come from (no asset with a file).', aoi.name), {});
    return false;
  }
  const picked = await services.ui.pick(
    usable.map((a) => ({ label: a.name, description: `${a.date} · ${a.band_list.join(', ')}`, asset: a })),
    { title: l10n.t('Add asset_source'), placeHolder: l10n.t("Which of the AOI's images does this input come from?"), ignoreFocusOut: true },
  );
  if (!picked) return false;
  const text = doc.getText();
  const fmt = { tabSize: 2, insertSpaces: true, eol: doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n' };
  const edits = [...jsonc().modify(text, ['input', inputIndex, 'asset_source'], { id: picked.asset.id, type: 'raw_mosaic' }, { formattingOptions: fmt })];
  // raw_mosaic needs stac_url (rule 2): add the asset's when the input has none.
  const root = jsonc().parseTree(text);
  const hasStac = root ? jsonc().findNodeAtLocation(root, ['input', inputIndex, 'stac_url']) !== undefined : false;
  let finalEdits = edits;
  if (!hasStac) {
    const mid = jsonc().applyEdits(text, edits);
    const more = jsonc().modify(mid, ['input', inputIndex, 'stac_url'], picked.asset.path, { formattingOptions: fmt });
    const whole = jsonc().applyEdits(mid, more);
    finalEdits = [{ offset: 0, length: text.length, content: whole }];
  }
  const edit = new vscode.WorkspaceEdit();
  for (const e of finalEdits) edit.replace(uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
  const applied = await vscode.workspace.applyEdit(edit);
  if (applied) revealSource(uri, inputIndex);
  return applied;
}

/** Scrolls the editor showing `uri` to the asset_source just added (it may be below the screen). */
function revealSource(uri: vscode.Uri, inputIndex: number): void {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  if (!editor) return;
  const root = jsonc().parseTree(editor.document.getText());
  const node = root ? jsonc().findNodeAtLocation(root, ['input', inputIndex, 'asset_source']) : undefined;
  if (!node) return;
  const range = new vscode.Range(editor.document.positionAt(node.offset), editor.document.positionAt(node.offset + node.length));
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
