import vscode = require('vscode');
import { parseInsight, readBlockRef, validateInsight } from '../validate/validate';
import type { InsightDiagnostic, SpecLookup } from '../validate/types';
import type { SpecSource } from '../specSource';
import { isInsightDocument, layoutFor, toRange } from './documents';

export const DIAGNOSTIC_SOURCE = 'EO Imagery';
const DEBOUNCE_MS = 250;

const SEVERITY: Record<InsightDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

interface Published {
  version: number;
  items: InsightDiagnostic[];
  /** The validator's diagnostic behind each published one, by code and range. */
  byRange: Map<string, InsightDiagnostic>;
}

const rangeKey = (code: unknown, r: vscode.Range): string => `${String(code)}@${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;

/**
 * Validates insight files as they open and change, and publishes the diagnostics. The last
 * result per document is kept (with the document version) so quick fixes can be built from
 * the validator's own edits.
 */
export class InsightDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('eoImagery.insights');
  private readonly published = new Map<string, Published>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generation = new Map<string, number>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly specs: SpecSource) {
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, DEBOUNCE_MS)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      // Restricted Mode checked the files without the spec: check them again now.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refreshAll()),
    );
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  /**
   * The validator's diagnostic (with its fixes) behind a diagnostic VS Code hands back, when it
   * still describes the document's current text. One lookup, however many problems the file has.
   */
  find(doc: vscode.TextDocument, diag: vscode.Diagnostic): InsightDiagnostic | undefined {
    const p = this.published.get(doc.uri.toString());
    return p && p.version === doc.version ? p.byRange.get(rangeKey(diag.code, diag.range)) : undefined;
  }

  /** Revalidates every open insight file (after sign-in or sign-out). */
  refreshAll(): void {
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (!isInsightDocument(doc)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => void this.validate(doc), delay),
    );
  }

  /**
   * Validates now and publishes; resolves with what was published. The block spec is fetched
   * only in a trusted workspace, or when the person asked (`explicit`: a command): opening a
   * file of an untrusted repository sends no request.
   */
  async validate(doc: vscode.TextDocument, opts: { explicit?: boolean } = {}): Promise<InsightDiagnostic[]> {
    const key = doc.uri.toString();
    const gen = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, gen);
    const version = doc.version;
    const parsed = parseInsight(doc.getText());
    const ref = readBlockRef(parsed);
    let lookup: SpecLookup | undefined;
    if (ref && !opts.explicit && !vscode.workspace.isTrusted) {
      lookup = { status: 'restricted' };
    } else if (ref) {
      // Show the file-only checks at once; the spec arrives from the network (or the cache).
      this.publish(doc, version, validateInsight(parsed, undefined, layoutFor(doc)));
      lookup = await this.specs.lookup(ref.name, ref.version);
    }
    const items = validateInsight(parsed, lookup, layoutFor(doc));
    // A newer edit started its own validation: let that one publish.
    if (this.generation.get(key) === gen && doc.version === version && !doc.isClosed) this.publish(doc, version, items);
    return items;
  }

  private publish(doc: vscode.TextDocument, version: number, items: InsightDiagnostic[]): void {
    const byRange = new Map<string, InsightDiagnostic>();
    const diags = items.map((d) => {
      const range = toRange(doc, d.offset, d.length);
      const diag = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
      diag.source = DIAGNOSTIC_SOURCE;
      diag.code = d.code;
      const key = rangeKey(d.code, range);
      if (!byRange.has(key)) byRange.set(key, d);
      return diag;
    });
    this.published.set(doc.uri.toString(), { version, items, byRange });
    this.collection.set(doc.uri, diags);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.published.delete(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}
