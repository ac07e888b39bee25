/**
 * What the validator's checks share: the collector of diagnostics, lookups in the parsed tree,
 * and quick-fix edits (computed when the fix is asked for).
 */
import type { JSONPath, Node } from 'jsonc-parser';
import type { InputDefinition } from '../../api/records';
import { defaultValueType } from '../build/scalars';
import { type EntrySpans, modifyInput } from './localEdit';
import type { DiagnosticCode, InsightDiagnostic, LayoutOptions, QuickFix, Severity, TextEdit } from './types';

/** Where a diagnostic points: a node, or a stretch of the text. */
export type Anchor = { offset: number; length: number };

/** The file being checked, as the fixes need it. */
export interface FileText {
  text: string;
  layout: LayoutOptions;
  /** Where the `input` entries are, once known: their fixes then edit without re-parsing. */
  spans?: EntrySpans;
}

export class Collector {
  readonly out: InsightDiagnostic[] = [];
  add(code: DiagnosticCode, severity: Severity, node: Anchor, message: string, fixes: QuickFix[] = []): void {
    this.out.push({ code, severity, message, offset: node.offset, length: node.length, fixes });
  }
}

/**
 * The value of `obj`'s first property named `key` (as `findNodeAtLocation(obj, [key])` finds
 * it), read from the children directly: the checks ask this half a dozen times per input, and
 * the generic path walk was a tenth of validating a large file.
 */
export function prop(obj: Node | undefined, key: string): Node | undefined {
  if (!obj || obj.type !== 'object' || !obj.children) return undefined;
  for (const p of obj.children) {
    const kv = p.children;
    if (kv && kv.length === 2 && kv[0].value === key) return kv[1];
  }
  return undefined;
}

/** The key of a property whose value is `valueNode` (for "this property is wrong" ranges). */
export function keyOf(valueNode: Node): Node | undefined {
  const p = valueNode.parent;
  return p?.type === 'property' ? p.children?.[0] : undefined;
}

/**
 * Edits that insert or remove JSON, computed when the quick fix is asked for: `modify` parses
 * the text it edits, so computing it for every diagnostic made validation quadratic (and
 * within the `input` array it sees only the entries near the edit: localEdit.ts).
 */
export function editsFor(file: FileText, path: JSONPath, value: unknown, insert = false): () => TextEdit[] {
  return () => {
    const { text, layout, spans } = file;
    const eol = layout.eol ?? (text.includes('\r\n') ? '\r\n' : '\n');
    return modifyInput(text, spans, path, value, {
      formattingOptions: { tabSize: layout.tabSize, insertSpaces: layout.insertSpaces, eol },
      isArrayInsertion: insert,
    });
  };
}

/** Edits already known (a replacement of one node); keeps the offsets, not the parse tree. */
export function replace(node: Anchor, content: string): () => TextEdit[] {
  const { offset, length } = node;
  return () => [{ offset, length, content }];
}

/** The copy of a definition a "add the missing input" fix inserts (rule 6: type set). */
export function skeletonOf(def: InputDefinition): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(def) as unknown as Record<string, unknown>;
  if (typeof copy.type !== 'string' || copy.type === '') copy.type = defaultValueType(def.format);
  return copy;
}
