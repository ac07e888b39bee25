import vscode = require('vscode');
import type { ExtensionServices } from '../services';
import { fetchRecord } from './fetchRecord';
import { documentName } from './labels';
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
  const r = node.record as { collection?: unknown; aoi_id?: unknown; project_id?: unknown; workflow_id?: unknown };
  if (node.kind === 'archiveItem' && typeof r.collection === 'string') return r.collection;
  if ((node.kind === 'visualization' || node.kind === 'insightRun') && typeof r.aoi_id === 'string') return r.aoi_id;
  if (node.kind === 'workflow' && typeof r.project_id === 'string') return r.project_id;
  if (node.kind === 'job' && typeof r.workflow_id === 'string') return r.workflow_id;
  return undefined;
}

/** What a person calls the row: its tree label (the record's name), else its id. */
function rowName(node: RecordNode): string {
  const label = node.getTreeItem().label;
  const text = typeof label === 'string' ? label : label?.label;
  return documentName(text ?? '', node.recordId);
}

/**
 * Read-only JSON documents of records (`eo-imagery:/order/<name>.json?id=<id>`), pretty-printed,
 * so the tab reads the record's name while the id keeps documents apart. The text is the
 * record as the tree holds it; live progress updates it, and "Refresh" reads the record from
 * the service again.
 */
export class RecordDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly open = new Map<string, OpenRecord>();
  /** kind/parent/id → the URI it was opened under (the name in it may have changed since). */
  private readonly uris = new Map<string, vscode.Uri>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly services: ExtensionServices) {}

  uriFor(node: RecordNode): vscode.Uri {
    const parent = parentIdOf(node);
    const known = this.uris.get(recordKey(node.kind, node.recordId, parent));
    if (known) return known;
    // documentName keeps no `/`, `?`, `#` or `%`: the name goes into the path as it reads.
    const segments = [node.kind, `${rowName(node)}.json`];
    const query = new URLSearchParams({ id: node.recordId, ...(parent ? { parent } : {}) }).toString();
    return vscode.Uri.from({ scheme: RECORD_SCHEME, path: `/${segments.join('/')}`, query });
  }

  /** Registers `node`'s record under its URI and returns the URI. */
  track(node: RecordNode): vscode.Uri {
    const uri = this.uriFor(node);
    this.uris.set(recordKey(node.kind, node.recordId, parentIdOf(node)), uri);
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
    if (!entry) return vscode.l10n.t('// This record is not loaded in this window. Open it again from the EO Imagery sidebar.\n');
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
    this.uris.clear();
  }
}

function recordKey(kind: RecordKind, id: string, parent: string | undefined): string {
  return `${kind}/${parent ?? ''}/${id}`;
}
