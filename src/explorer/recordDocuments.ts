import vscode = require('vscode');
import type { ExtensionServices } from '../services';
import { fetchRecord } from './fetchRecord';
import type { RecordKind, RecordNode } from './tree';

export const RECORD_SCHEME = 'eo-imagery';

interface OpenRecord {
  kind: RecordKind;
  id: string;
  parentId?: string;
  record: object;
}

/** The collection of an archive item, the AOI of a visualization: what a read by id needs. */
export function parentIdOf(node: RecordNode): string | undefined {
  const r = node.record as { collection?: unknown; aoi_id?: unknown };
  if (node.kind === 'archiveItem' && typeof r.collection === 'string') return r.collection;
  if ((node.kind === 'visualization' || node.kind === 'insightRun') && typeof r.aoi_id === 'string') return r.aoi_id;
  return undefined;
}

/**
 * Read-only JSON documents of records (`eo-imagery:/order/<id>.json`), pretty-printed. The
 * text is the record as the tree holds it; live progress updates it, and "Refresh" reads
 * the record from the service again.
 */
export class RecordDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly open = new Map<string, OpenRecord>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly services: ExtensionServices) {}

  uriFor(node: RecordNode): vscode.Uri {
    const parent = parentIdOf(node);
    const segments = [node.kind, ...(parent ? [parent] : []), `${node.recordId}.json`].map(encodeURIComponent);
    return vscode.Uri.from({ scheme: RECORD_SCHEME, path: `/${segments.join('/')}` });
  }

  /** Registers `node`'s record under its URI and returns the URI. */
  track(node: RecordNode): vscode.Uri {
    const uri = this.uriFor(node);
    this.open.set(uri.toString(), { kind: node.kind, id: node.recordId, parentId: parentIdOf(node), record: node.record });
    this.emitter.fire(uri);
    return uri;
  }

  /** A node got a fresher record: update its document if one is open. */
  update(node: RecordNode): void {
    const uri = this.uriFor(node);
    const entry = this.open.get(uri.toString());
    if (!entry) return;
    entry.record = node.record;
    this.emitter.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const entry = this.open.get(uri.toString());
    if (!entry) return '// This record is not loaded in this window. Open it again from the EO Imagery sidebar.\n';
    return `${JSON.stringify(entry.record, null, 2)}\n`;
  }

  /** Reads the record again. Returns false when the service cannot read that kind alone. */
  async refresh(uri: vscode.Uri): Promise<boolean> {
    const entry = this.open.get(uri.toString());
    if (!entry) return false;
    const client = await this.services.connection.getClient();
    const fresh = await fetchRecord(client, entry.kind, entry.id, entry.parentId);
    this.services.connection.reportSuccess();
    if (!fresh) return false;
    entry.record = fresh;
    this.emitter.fire(uri);
    return true;
  }

  dispose(): void {
    this.emitter.dispose();
    this.open.clear();
  }
}
