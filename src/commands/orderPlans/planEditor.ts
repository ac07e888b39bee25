/**
 * Order plans in the editor: diagnostics as you type (the file's own checks at once, the
 * service's after, in a trusted workspace when signed in), the quick fix that takes the
 * service's name, completion of ids from the service, and the lenses (Price, Place Order…,
 * the price of each item once priced, what became of a placed plan). Text from the file or
 * the service is shown as plain text only.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Connection } from '../../auth/connection';
import { COMMANDS } from '../../commandIds';
import { amount, preciseKm2 } from '../../format';
import { jsonc } from '../../insights/jsonc';
import { checkPlanText, type CheckedPlan, type PlanDiagnostic } from '../../plans/checkPlan';
import { PLAN_FILE_SUFFIX, placementOf } from '../../plans/planFile';
import { safeText } from '../../safeText';
import { amountUnit } from '../../ui/amounts';
import { LiveDiagnostics, rangeAt, type CheckRun } from '../../ui/liveDiagnostics';
import type { PlanPrice } from './placePlan';
import type { ServiceFactsSource } from './serviceFacts';

export const PLAN_SELECTOR: vscode.DocumentSelector = { pattern: `**/*${PLAN_FILE_SUFFIX}` };
export const PLAN_DIAGNOSTIC_SOURCE = 'EO Imagery order plan';

export const isPlanDocument = (doc: vscode.TextDocument): boolean => doc.uri.path.endsWith(PLAN_FILE_SUFFIX);

export interface PlanEditorDeps {
  connection: Connection;
  facts: ServiceFactsSource;
  trusted: () => boolean;
  log: { warn(message: string): void };
}

/** Where a person reading the plan looks first: at its project (or its first character). */
function restrictedNote(text: string): PlanDiagnostic {
  const root = jsonc().parseTree(text);
  const at = (root && jsonc().findNodeAtLocation(root, ['project'])) ?? undefined;
  return {
    code: 'service-restricted',
    severity: 'info',
    offset: at?.offset ?? Math.max(0, text.search(/\S/)),
    length: at?.length ?? 1,
    message: l10n.t(
      'Restricted Mode: the ids and names in this plan were not checked against the service, which would send them with your token. Trust the workspace to check them.',
    ),
  };
}

/** Checks plan files as they open and change; keeps the last result per file for the fixes and lenses. */
export class PlanDiagnostics extends LiveDiagnostics<CheckedPlan, PlanDiagnostic> {
  constructor(private readonly deps: PlanEditorDeps) {
    super({ collection: 'eoImagery.orderPlans', source: PLAN_DIAGNOSTIC_SOURCE, debounceMs: 150, accepts: isPlanDocument, problemsOf: (c) => c.diagnostics });
    this.disposables.push(
      deps.connection.onDidChange(() => {
        deps.facts.clear();
        this.refreshAll();
      }),
    );
    this.refreshAll();
  }

  /** The file's own checks are published at once, the service's when they arrive. */
  protected async check(doc: vscode.TextDocument, run: CheckRun<CheckedPlan>): Promise<CheckedPlan> {
    const text = doc.getText();
    const offline = checkPlanText(text);
    run.publishNow(offline);
    const { connection, trusted, facts } = this.deps;
    // Opening a file of an untrusted repository sends nothing, and says so; nor does a signed-out window.
    if (offline.plan && !trusted()) return { ...offline, diagnostics: [...offline.diagnostics, restrictedNote(text)] };
    if (!offline.plan || connection.state === 'signedOut') return offline;
    try {
      const client = await connection.getClient();
      return checkPlanText(text, await facts.factsFor(client, offline.plan));
    } catch (err) {
      // Recovers: the file's own checks stand; the service's come with the next edit or sign-in.
      this.deps.log.warn(`Order plan ${doc.uri.path}: not checked against the service: ${String(err)}`);
      return offline;
    }
  }
}

/** The fix of a name that differs from the service's. */
export class PlanCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  constructor(private readonly diagnostics: PlanDiagnostics) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    for (const diag of context.diagnostics) {
      const fix = diag.source === PLAN_DIAGNOSTIC_SOURCE ? this.diagnostics.find(doc, diag)?.fix : undefined;
      if (!fix) continue;
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diag];
      action.isPreferred = true;
      action.edit = new vscode.WorkspaceEdit();
      for (const e of fix.edits) action.edit.replace(doc.uri, rangeAt(doc, e.offset, e.length), e.content);
      out.push(action);
    }
    return out;
  }
}

/** Which list an id at this place in a plan comes from. */
function listAt(path: (string | number)[]): 'projects' | 'aois' | 'stores' | 'bandsets' | undefined {
  const p = path.map(String).join('/');
  if (p === 'project/id') return 'projects';
  if (p === 'delivery/store/id') return 'stores';
  if (/^items\/\d+\/aoi\/id$/.test(p)) return 'aois';
  if (/^items\/\d+\/bandset\/id$/.test(p)) return 'bandsets';
  return undefined;
}

/** Ids from the signed-in service, named: only in a trusted workspace. */
export class PlanCompletions implements vscode.CompletionItemProvider {
  constructor(private readonly deps: PlanEditorDeps) {}

  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const { connection, trusted, facts } = this.deps;
    if (!trusted() || connection.state === 'signedOut') return [];
    const offset = doc.offsetAt(position);
    const where = jsonc().getLocation(doc.getText(), offset);
    const list = where.isAtPropertyKey ? undefined : listAt(where.path);
    if (!list) return [];
    const lists = await facts.listsOf(await connection.getClient());
    const rows: { id: string; name: string; detail?: string }[] =
      list === 'projects'
        ? lists.projects.map((p) => ({ id: p.id, name: p.title || p.name }))
        : list === 'aois'
          ? lists.aois.map((a) => ({ id: a.aoi_id, name: a.name }))
          : list === 'stores'
            ? lists.stores.map((s) => ({ id: s.id, name: s.name, detail: s.type }))
            : lists.bandsets.map((b) => ({ id: b.id, name: b.name, detail: b.bands.map((x) => x.name).join(', ') }));
    const node = where.previousNode;
    const range = node && node.type === 'string' ? rangeAt(doc, node.offset, node.length) : undefined;
    return rows.map((r) => {
      const item = new vscode.CompletionItem(
        { label: r.name, description: r.id, detail: r.detail ? ` ${r.detail}` : undefined },
        vscode.CompletionItemKind.Value,
      );
      item.insertText = JSON.stringify(r.id);
      item.filterText = `"${r.name} ${r.id}`;
      item.range = range;
      return item;
    });
  }
}

/** Price, Place Order… and, once priced for this very text, each item's amount. */
export class PlanLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly prices = new Map<string, PlanPrice>();
  private readonly listener = vscode.workspace.onDidChangeTextDocument((e) => {
    // The price is of the text it was asked for: an edit drops it.
    if (this.prices.delete(e.document.uri.toString())) this.changed.fire();
  });

  constructor(private readonly diagnostics: PlanDiagnostics) {}

  setPrice(doc: vscode.TextDocument, price: PlanPrice): void {
    if (price.version !== doc.version) return;
    this.prices.set(doc.uri.toString(), price);
    this.changed.fire();
  }

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const text = doc.getText();
    const at = doc.positionAt(Math.max(0, text.search(/\S/)));
    const top = new vscode.Range(at, at);
    const price = this.prices.get(doc.uri.toString());
    const current = price && price.version === doc.version ? price : undefined;
    const unit = amountUnit();
    const lenses = [
      new vscode.CodeLens(top, {
        title: current ? l10n.t('$(tag) Priced: {0}', safeText(current.headline, 'pick')) : l10n.t('$(tag) Price'),
        tooltip: l10n.t('Price this plan with the service (a dry run: nothing is ordered)'),
        command: COMMANDS.pricePlan,
        arguments: [doc.uri],
      }),
      new vscode.CodeLens(top, {
        title: l10n.t('$(credit-card) Place Order…'),
        tooltip: l10n.t('Price this plan and confirm the price before anything is ordered'),
        command: COMMANDS.placePlan,
        arguments: [doc.uri],
      }),
    ];
    const checked = this.diagnostics.resultFor(doc) ?? checkPlanText(text);
    const plan = checked.plan;
    if (plan) {
      const placement = placementOf(plan);
      if (placement.state !== 'new') {
        lenses.push(
          new vscode.CodeLens(top, {
            title:
              placement.state === 'placed'
                ? l10n.t('$(check) Placed as order {0} on {1}', lensValue(placement.placed.order_id), lensValue(placement.placed.at.slice(0, 10)))
                : l10n.t('$(warning) Changed since it was placed as order {0}', lensValue(placement.placed.order_id)),
            tooltip: l10n.t('Show the Orders view'),
            command: 'eoImagery.orders.focus',
          }),
        );
      }
    }
    if (current && plan) {
      const root = jsonc().parseTree(text);
      (current.priced.order_items ?? []).forEach((item, i) => {
        const node = root && jsonc().findNodeAtLocation(root, ['items', i]);
        if (!node) return;
        const pos = doc.positionAt(node.offset);
        const parts = [amount(item.final_amount, unit), preciseKm2(item.area)];
        if (item.feasibility_status && item.feasibility_status !== 'SUCCESS')
          parts.push(l10n.t('feasibility {0}', item.feasibility_status.toLowerCase().replace('_', ' ')));
        lenses.push(
          new vscode.CodeLens(new vscode.Range(pos, pos), {
            title: safeText(parts.join(' · '), 'pick'),
            tooltip: l10n.t('The dry run\u2019s final amount and area of this item'),
            command: '',
          }),
        );
      });
    }
    return lenses;
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}

/** A value from the plan file inside a CodeLens title (which renders `$(icon)`): its words only, short. */
function lensValue(value: string): string {
  return safeText(value, 'pick', 80);
}
