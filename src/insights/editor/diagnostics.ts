import vscode = require('vscode');
import { LiveDiagnostics, type CheckRun } from '../../ui/liveDiagnostics';
import { parseInsight, readBlockRef, validateInsight } from '../validate/validate';
import type { InsightDiagnostic, SpecLookup } from '../validate/types';
import type { SpecSource } from '../specSource';
import { isInsightDocument, layoutFor } from './documents';

export const DIAGNOSTIC_SOURCE = 'EO Imagery';

/**
 * Validates insight files as they open and change, and publishes the diagnostics. The last
 * result per document is kept (with the document version) so quick fixes can be built from
 * the validator's own edits.
 */
export class InsightDiagnostics extends LiveDiagnostics<InsightDiagnostic[], InsightDiagnostic> {
  constructor(private readonly specs: SpecSource) {
    super({ collection: 'eoImagery.insights', source: DIAGNOSTIC_SOURCE, debounceMs: 250, accepts: isInsightDocument, problemsOf: (items) => items });
    this.refreshAll();
  }

  /**
   * Validates now and publishes; resolves with what was published. The block spec is fetched
   * only in a trusted workspace, or when the person asked (`explicit`: a command): opening a
   * file of an untrusted repository sends no request.
   */
  validate(doc: vscode.TextDocument, opts: { explicit?: boolean } = {}): Promise<InsightDiagnostic[]> {
    return this.checkNow(doc, opts);
  }

  protected async check(doc: vscode.TextDocument, run: CheckRun<InsightDiagnostic[]>, explicit: boolean): Promise<InsightDiagnostic[]> {
    const parsed = parseInsight(doc.getText());
    const ref = readBlockRef(parsed);
    let lookup: SpecLookup | undefined;
    if (ref && !explicit && !vscode.workspace.isTrusted) {
      lookup = { status: 'restricted' };
    } else if (ref) {
      // Show the file-only checks at once; the spec arrives from the network (or the cache).
      run.publishNow(validateInsight(parsed, undefined, layoutFor(doc)));
      lookup = await this.specs.lookup(ref.name, ref.version);
    }
    return validateInsight(parsed, lookup, layoutFor(doc));
  }
}
