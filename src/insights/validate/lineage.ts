/** Rules 2, 3 and 5: where a raster or vector input comes from (`asset_source`, `stac_url`, `value`). */
import type { Node } from 'jsonc-parser';
import * as l10n from '@vscode/l10n';
import { type Anchor, type Collector, editsFor, type FileText, keyOf, prop, replace } from './collect';
import { fill } from './fill';
import type { QuickFix } from './types';

const SOURCE_TYPES = ['raw_mosaic', 'model_output'];

/** The first complete `asset_source` given for each `stac_url`, indexed on first use. */
export class LineageSources {
  private byStacUrl?: Map<string, { id: string; type: string }>;
  constructor(private readonly entries: Node[]) {}

  sourceFor(stacUrl: string): { id: string; type: string } | undefined {
    if (!this.byStacUrl) {
      this.byStacUrl = new Map();
      for (const entry of this.entries) {
        const url = prop(entry, 'stac_url');
        if (url?.type !== 'string' || this.byStacUrl.has(String(url.value))) continue;
        const src = prop(entry, 'asset_source');
        const id = prop(src, 'id');
        const type = prop(src, 'type');
        if (id?.type === 'string' && type?.type === 'string') this.byStacUrl.set(String(url.value), { id: String(id.value), type: String(type.value) });
      }
    }
    return this.byStacUrl.get(stacUrl);
  }
}

/** One raster or vector input, as far as the entry checks read it. */
export interface LineageInput {
  index: number;
  entry: Node;
  anchor: Anchor;
  inputName: string | undefined;
  format: string;
  hasValue: boolean;
  hasStac: boolean;
  stacUrl: string | undefined;
}

export function checkLineage(c: Collector, file: FileText, lineage: LineageSources, input: LineageInput): void {
  const { index, entry, anchor, inputName, format, hasValue, hasStac, stacUrl } = input;
  const label = inputName ? fill(l10n.t('{0} input "{1}"'), format, inputName) : fill(l10n.t('This {0} input'), format);
  const srcN = prop(entry, 'asset_source');
  if (!srcN) {
    const fixes: QuickFix[] = [];
    // Another input that references the same asset already names its lineage: reuse it.
    const known = stacUrl !== undefined ? lineage.sourceFor(stacUrl) : undefined;
    if (known) {
      fixes.push({
        kind: 'edit',
        get title() {
          return fill(l10n.t('Add asset_source {0} {1} (as another input with this stac_url)'), known.type, known.id);
        },
        edits: editsFor(file, ['input', index, 'asset_source'], known),
        preferred: true,
      });
    }
    fixes.push({
      kind: 'pick-asset-source',
      get title() {
        return l10n.t('Add asset_source from an AOI asset…');
      },
      inputIndex: index,
    });
    c.add('asset-source-missing', 'error', anchor, fill(l10n.t('{0} needs "asset_source" {id, type} (rule 5).'), label), fixes);
    if (!hasValue && !hasStac) c.add('value-missing', 'error', anchor, fill(l10n.t('{0} has neither "value" nor "stac_url".'), label));
    return;
  }
  if (srcN.type !== 'object') {
    c.add('asset-source-invalid', 'error', srcN, l10n.t('"asset_source" must be an object {id, type}.'));
    return;
  }
  const idN = prop(srcN, 'id');
  if (idN?.type !== 'string' || String(idN.value) === '') {
    c.add(
      'asset-source-invalid',
      'error',
      idN ?? keyOf(srcN) ?? srcN,
      l10n.t('"asset_source.id" must be the id of the asset (raw_mosaic) or insight (model_output).'),
    );
  }
  const typeN = prop(srcN, 'type');
  const srcType = typeN?.type === 'string' ? String(typeN.value) : undefined;
  if (srcType === undefined || !SOURCE_TYPES.includes(srcType)) {
    const fixes: QuickFix[] = [];
    const guess = hasStac ? 'raw_mosaic' : hasValue ? 'model_output' : undefined;
    for (const t of SOURCE_TYPES) {
      const edits = typeN ? replace(typeN, JSON.stringify(t)) : editsFor(file, ['input', index, 'asset_source', 'type'], t);
      fixes.push({
        kind: 'edit',
        get title() {
          return fill(l10n.t('Set asset_source.type to "{0}"'), t);
        },
        edits,
        preferred: t === guess,
      });
    }
    c.add(
      'asset-source-type',
      'error',
      typeN ?? keyOf(srcN) ?? srcN,
      l10n.t('"asset_source.type" must be "raw_mosaic" (an AOI asset) or "model_output" (an insight\'s output).'),
      fixes,
    );
    if (!hasValue && !hasStac) c.add('value-missing', 'error', anchor, fill(l10n.t('{0} has neither "value" nor "stac_url".'), label));
    return;
  }
  if (srcType === 'raw_mosaic' && !hasStac) {
    c.add('raw-mosaic-without-stac-url', 'error', typeN!, fill(l10n.t('{0} comes from an AOI asset (raw_mosaic) and needs "stac_url" (rule 2).'), label));
  }
  if (srcType === 'model_output' && !hasValue) {
    c.add(
      'model-output-without-value',
      'error',
      typeN!,
      fill(l10n.t('{0} comes from an insight\'s output (model_output) and needs "value", the output\'s storage URL (rule 3).'), label),
    );
  }
}
