import vscode = require('vscode');

/** A problem a checker found in a file's text: where, what, how bad. */
export interface FoundProblem {
  offset: number;
  length: number;
  message: string;
  severity: 'error' | 'warning' | 'info';
  code: string;
}

const SEVERITY: Record<FoundProblem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export const rangeAt = (doc: vscode.TextDocument, offset: number, length: number): vscode.Range =>
  new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + length));
const keyOf = (code: unknown, r: vscode.Range): string => `${String(code)}@${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;

/** One check of one version of a document: it may publish early (the file's own checks) and again when it ends. */
export interface CheckRun<R> {
  /** Publishes now, whatever came since: what the file alone says, before the network answers. */
  publishNow(result: R): void;
  /** False once a newer edit started its own check, or the document closed: that one publishes. */
  stillCurrent(): boolean;
}

export interface LiveDiagnosticsOptions<R, D extends FoundProblem> {
  /** The diagnostic collection's name, and the source shown beside each problem. */
  collection: string;
  source: string;
  debounceMs: number;
  accepts(doc: vscode.TextDocument): boolean;
  problemsOf(result: R): readonly D[];
}

/**
 * Checks files of one kind as they open and change, and publishes their problems; keeps the last
 * result per file, with its version, so quick fixes and lenses read what is on screen. A check
 * that a newer edit overtook publishes nothing at its end. The insight inputs and the order plans
 * are its two kinds: `check` is theirs.
 */
export abstract class LiveDiagnostics<R, D extends FoundProblem> implements vscode.Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  private readonly results = new Map<string, { version: number; result: R; byRange: Map<string, D> }>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generation = new Map<string, number>();
  protected readonly disposables: vscode.Disposable[] = [];

  protected constructor(private readonly options: LiveDiagnosticsOptions<R, D>) {
    this.collection = vscode.languages.createDiagnosticCollection(options.collection);
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, options.debounceMs)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      // Restricted Mode checked the files without the service: check them again now.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refreshAll()),
    );
  }

  /** The check itself: returns the final result; `run.publishNow` shows a first one early. */
  protected abstract check(doc: vscode.TextDocument, run: CheckRun<R>, explicit: boolean): Promise<R>;

  /** Checks every open file of this kind again (after sign-in, sign-out or a grant of trust). */
  refreshAll(): void {
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  /** The last result of the document's current text, when it was checked. */
  resultFor(doc: vscode.TextDocument): R | undefined {
    const r = this.results.get(doc.uri.toString());
    return r && r.version === doc.version ? r.result : undefined;
  }

  /** The checker's problem (with its fixes) behind a diagnostic VS Code hands back, while it describes the current text. */
  find(doc: vscode.TextDocument, diag: vscode.Diagnostic): D | undefined {
    const r = this.results.get(doc.uri.toString());
    return r && r.version === doc.version ? r.byRange.get(keyOf(diag.code, diag.range)) : undefined;
  }

  /** Checks now and publishes; resolves with the final result (`explicit`: a person asked for it). */
  async checkNow(doc: vscode.TextDocument, opts: { explicit?: boolean } = {}): Promise<R> {
    const key = doc.uri.toString();
    const gen = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, gen);
    const version = doc.version;
    const stillCurrent = (): boolean => this.generation.get(key) === gen && doc.version === version && !doc.isClosed;
    const result = await this.check(doc, { publishNow: (r) => this.publish(doc, version, r), stillCurrent }, opts.explicit ?? false);
    if (stillCurrent()) this.publish(doc, version, result);
    return result;
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (!this.options.accepts(doc)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => void this.checkNow(doc), delay),
    );
  }

  private publish(doc: vscode.TextDocument, version: number, result: R): void {
    const byRange = new Map<string, D>();
    const diags = this.options.problemsOf(result).map((d) => {
      const range = rangeAt(doc, d.offset, d.length);
      const diag = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
      diag.source = this.options.source;
      diag.code = d.code;
      const key = keyOf(d.code, range);
      if (!byRange.has(key)) byRange.set(key, d);
      return diag;
    });
    this.results.set(doc.uri.toString(), { version, result, byRange });
    this.collection.set(doc.uri, diags);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.results.delete(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}
