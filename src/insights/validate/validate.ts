import type { JSONPath, Node, ParseError } from 'jsonc-parser';
import * as l10n from '@vscode/l10n';
import { firstTooDeep } from '../../api/jsonDepth';
import { jsonc } from '../jsonc';
import type { InputDefinition } from '../../api/records';
import { isRequired } from '../build/choices';
import { defaultValueType, parseScalar, scalarKindOf } from '../build/scalars';
import type { DiagnosticCode, InsightDiagnostic, LayoutOptions, QuickFix, Severity, SpecLookup, TextEdit } from './types';

const VALUE_TYPES = ['url', 'string', 'number', 'boolean'];
const SOURCE_TYPES = ['raw_mosaic', 'model_output'];
const LINEAGE_FORMATS = new Set(['raster', 'vector']);

/**
 * Deeper than this the file is refused before parsing: the parser (and anything walking its
 * tree) recurses once per level, and an insight input needs a handful of levels.
 */
export const MAX_NESTING = 256;

export interface ParsedInsight {
  text: string;
  root: Node | undefined;
  errors: ParseError[];
  /** Set when the file nests deeper than MAX_NESTING: it was not parsed. */
  tooDeep?: { offset: number };
}

/**
 * The one parser for insight files: the validator, the CodeLens and Run all read the file
 * through it, so a file that validates is the file that runs (comments and trailing commas
 * allowed by both).
 */
export function parseInsight(text: string): ParsedInsight {
  const deep = firstTooDeep(text, MAX_NESTING);
  if (deep !== undefined) return { text, root: undefined, errors: [], tooDeep: { offset: deep } };
  const errors: ParseError[] = [];
  // A byte-order mark becomes a space: the same length, so every offset stays right.
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const root = jsonc().parseTree(source, errors, { allowTrailingComma: true, disallowComments: false });
  return { text, root, errors };
}

/** The value the file holds, as Run sends it; undefined when it has syntax errors. */
export function insightValue(parsed: ParsedInsight): unknown {
  if (!parsed.root || parsed.errors.length > 0) return undefined;
  return jsonc().getNodeValue(parsed.root);
}

/** The block the file names, when both parts are strings; the spec lookup starts from it. */
export function readBlockRef(parsed: ParsedInsight): { name: string; version: string } | undefined {
  if (!parsed.root || parsed.root.type !== 'object') return undefined;
  const name = jsonc().findNodeAtLocation(parsed.root, ['block', 'name']);
  const version = jsonc().findNodeAtLocation(parsed.root, ['block', 'version']);
  if (name?.type !== 'string' || version?.type !== 'string') return undefined;
  return { name: String(name.value), version: String(version.value) };
}

function prop(obj: Node | undefined, key: string): Node | undefined {
  if (!obj || obj.type !== 'object') return undefined;
  return jsonc().findNodeAtLocation(obj, [key]);
}

/** The key of a property whose value is `valueNode` (for "this property is wrong" ranges). */
function keyOf(valueNode: Node): Node | undefined {
  const p = valueNode.parent;
  return p?.type === 'property' ? p.children?.[0] : undefined;
}

/**
 * Edits that insert or remove JSON, computed when the quick fix is asked for: `modify` parses
 * the whole file again, so computing it for every diagnostic made validation quadratic.
 */
function editsFor(text: string, path: JSONPath, value: unknown, layout: LayoutOptions, insert = false): () => TextEdit[] {
  return () => {
    const eol = layout.eol ?? (text.includes('\r\n') ? '\r\n' : '\n');
    return jsonc().modify(text, path, value, {
      formattingOptions: { tabSize: layout.tabSize, insertSpaces: layout.insertSpaces, eol },
      isArrayInsertion: insert,
    });
  };
}

/** Edits already known (a replacement of one node). */
const replace =
  (node: { offset: number; length: number }, content: string): (() => TextEdit[]) =>
  () => [{ offset: node.offset, length: node.length, content }];

/**
 * Levenshtein distance of `a` and `b` when it is at most `max`, else `Infinity`. Bounded because
 * it runs for every unknown input name against every spec input: a file of thousands of
 * misnamed inputs must stay linear and cheap (a length gap over `max` answers at once, and a
 * row whose best cell is over `max` ends the search).
 */
function distanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return Infinity;
  const d = new Uint16Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    let rowMin = d[0];
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      prev = tmp;
      if (d[j] < rowMin) rowMin = d[j];
    }
    if (rowMin > max) return Infinity;
  }
  return d[b.length] <= max ? d[b.length] : Infinity;
}

/** The copy of a definition a "add the missing input" fix inserts (rule 6: type set). */
function skeletonOf(def: InputDefinition): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(def) as unknown as Record<string, unknown>;
  if (typeof copy.type !== 'string' || copy.type === '') copy.type = defaultValueType(def.format);
  return copy;
}

class Collector {
  readonly out: InsightDiagnostic[] = [];
  add(code: DiagnosticCode, severity: Severity, node: { offset: number; length: number }, message: string, fixes: QuickFix[] = []): void {
    this.out.push({ code, severity, message, offset: node.offset, length: node.length, fixes });
  }
}

/**
 * Validates an insight input file. Without a spec (signed out, service down) the checks that
 * need only the file still run; with one, the file is also held against the block's inputs.
 * Syntax errors are left to VS Code's JSON support, which already reports them.
 */
export function validateInsight(
  parsed: ParsedInsight,
  lookup: SpecLookup | undefined,
  layout: LayoutOptions = { tabSize: 2, insertSpaces: true },
): InsightDiagnostic[] {
  const { root, text } = parsed;
  const c = new Collector();
  if (parsed.tooDeep) {
    c.add(
      'document-too-deep',
      'error',
      { offset: parsed.tooDeep.offset, length: 1 },
      l10n.t(
        'The file nests arrays and objects more than {0} levels deep; an insight input needs only a few. Remove the extra nesting to check the file.',
        MAX_NESTING,
      ),
    );
    return c.out;
  }
  if (!root) return c.out;
  const docStart = { offset: root.offset, length: Math.min(1, root.length) };
  if (root.type !== 'object') {
    c.add('document-not-object', 'error', root, l10n.t('An insight input file holds one object: {name, block, input}.'));
    return c.out;
  }

  const nameNode = prop(root, 'name');
  if (!nameNode) c.add('name-missing', 'error', docStart, l10n.t('The file has no "name" (the insight\'s name).'));
  else if (nameNode.type !== 'string' || String(nameNode.value).trim() === '') {
    c.add('name-missing', 'error', nameNode, l10n.t('"name" must be a non-empty string.'));
  }

  // ---- block
  const blockNode = prop(root, 'block');
  const blockNameNode = prop(blockNode, 'name');
  const blockVersionNode = prop(blockNode, 'version');
  if (!blockNode) c.add('block-missing', 'error', docStart, l10n.t('The file has no "block" ({name, version}).'));
  else if (blockNode.type !== 'object') c.add('block-missing', 'error', blockNode, l10n.t('"block" must be an object {name, version}.'));
  else {
    if (blockNameNode?.type !== 'string') {
      c.add('block-name-missing', 'error', blockNameNode ?? keyOf(blockNode) ?? blockNode, l10n.t('"block.name" must be a string naming the block.'));
    }
    if (blockVersionNode?.type !== 'string') {
      c.add(
        'block-version-missing',
        'error',
        blockVersionNode ?? keyOf(blockNode) ?? blockNode,
        l10n.t('"block.version" must be a string (blocks are run by name and version).'),
      );
    }
  }

  let spec: SpecLookup | undefined = lookup;
  const specAnchor = blockNameNode ?? blockNode ?? docStart;
  if (lookup && blockNameNode?.type === 'string' && blockVersionNode?.type === 'string') {
    switch (lookup.status) {
      case 'unknown-block':
        c.add('block-unknown', 'error', blockNameNode, l10n.t('The service has no insight block named "{0}".', String(blockNameNode.value)));
        spec = undefined;
        break;
      case 'unknown-version': {
        const fixes: QuickFix[] = lookup.versions.slice(0, 5).map((v, i) => ({
          kind: 'edit',
          title: l10n.t('Use version {0}', v),
          edits: replace(blockVersionNode, JSON.stringify(v)),
          preferred: i === 0,
        }));
        const message =
          lookup.versions.length > 0
            ? l10n.t('Block "{0}" has no version "{1}". Known versions: {2}.', lookup.name, String(blockVersionNode.value), lookup.versions.join(', '))
            : l10n.t('Block "{0}" has no version "{1}".', lookup.name, String(blockVersionNode.value));
        c.add('block-version-unknown', 'error', blockVersionNode, message, fixes);
        spec = undefined;
        break;
      }
      case 'signed-out':
        c.add(
          'spec-needs-sign-in',
          'info',
          specAnchor,
          l10n.t("Sign in to check this file against the block spec; only the file's own structure was checked."),
        );
        spec = undefined;
        break;
      case 'restricted':
        c.add(
          'spec-restricted',
          'info',
          specAnchor,
          l10n.t(
            'Restricted Mode: this file was not checked against the block spec, which would ask the service. Trust the workspace, or run "Validate Insight Input Against Block Spec", to check it.',
          ),
        );
        spec = undefined;
        break;
      case 'unavailable':
        c.add(
          'spec-unavailable',
          'info',
          specAnchor,
          l10n.t("The block spec could not be fetched ({0}); only the file's own structure was checked.", lookup.reason),
        );
        spec = undefined;
        break;
      case 'found':
        break;
    }
  } else spec = undefined;
  const defs = spec?.status === 'found' ? spec.spec.inputs : undefined;

  // ---- inputs
  const inputNode = prop(root, 'input');
  if (!inputNode) {
    const fixes: QuickFix[] = defs
      ? [
          {
            kind: 'edit',
            title: l10n.t('Add the inputs of the block spec'),
            edits: editsFor(text, ['input'], defs.filter((d) => isRequired(d)).map(skeletonOf), layout),
          },
        ]
      : [];
    c.add('input-missing', 'error', docStart, l10n.t('The file has no "input" array.'), fixes);
    return c.out;
  }
  if (inputNode.type !== 'array') {
    c.add('input-missing', 'error', inputNode, l10n.t('"input" must be an array of input values.'));
    return c.out;
  }
  const inputKey = keyOf(inputNode) ?? inputNode;
  const entries = inputNode.children ?? [];
  const byName = new Map<string, InputDefinition>((defs ?? []).map((d) => [d.name, d]));
  const present = new Set<string>();
  // Built on first need, once per file: per-input scans of every input made this quadratic.
  let inputList: string | undefined;
  let namesInFile: Set<unknown> | undefined;
  const lineage = new LineageSources(entries);

  entries.forEach((entry, index) => {
    if (entry.type !== 'object') {
      c.add('input-entry-not-object', 'error', entry, l10n.t('Each input is an object {format, name, type, description, ...}.'));
      return;
    }
    const nameN = prop(entry, 'name');
    const anchor = nameN ?? { offset: entry.offset, length: 1 };
    if (nameN?.type !== 'string') {
      c.add('input-name-missing', 'error', anchor, l10n.t('The input has no "name" string.'));
    }
    const inputName = nameN?.type === 'string' ? String(nameN.value) : undefined;
    const def = inputName !== undefined ? byName.get(inputName) : undefined;

    if (inputName !== undefined) {
      if (present.has(inputName)) c.add('input-duplicate', 'error', nameN!, l10n.t('Input "{0}" appears more than once.', inputName));
      present.add(inputName);
      if (defs && !def) {
        const fixes: QuickFix[] = [];
        namesInFile ??= new Set(entries.map((e) => prop(e, 'name')?.value));
        const unused = defs.filter((d) => !namesInFile!.has(d.name));
        const max = Math.max(2, Math.floor(inputName.length / 3));
        const close = unused
          .map((d) => ({ d, dist: d.name.toLowerCase() === inputName.toLowerCase() ? 0 : distanceWithin(d.name, inputName, max) }))
          .filter((x) => x.dist <= max)
          .sort((a, b) => a.dist - b.dist);
        for (const { d } of close.slice(0, 3)) {
          fixes.push({ kind: 'edit', title: l10n.t('Rename to "{0}"', d.name), edits: replace(nameN!, JSON.stringify(d.name)), preferred: fixes.length === 0 });
        }
        fixes.push({ kind: 'edit', title: l10n.t('Remove input "{0}"', inputName), edits: editsFor(text, ['input', index], undefined, layout) });
        inputList ??= defs.map((d) => d.name).join(', ');
        c.add(
          'input-unknown',
          'error',
          nameN!,
          spec?.status === 'found'
            ? l10n.t('Block {0} {1} has no input "{2}" (inputs: {3}).', spec.spec.name, spec.spec.version, inputName, inputList)
            : l10n.t('The block has no input "{0}" (inputs: {1}).', inputName, inputList),
          fixes,
        );
      }
    }

    const formatN = prop(entry, 'format');
    const fileFormat = formatN?.type === 'string' ? String(formatN.value) : undefined;
    if (def && formatN && fileFormat !== def.format) {
      c.add('format-mismatch', 'error', formatN, l10n.t('The spec gives input "{0}" format "{1}".', def.name, def.format), [
        { kind: 'edit', title: l10n.t('Set format to "{0}"', def.format), edits: replace(formatN, JSON.stringify(def.format)), preferred: true },
      ]);
    }
    const format = def?.format ?? fileFormat;

    // type (rule 6)
    const typeN = prop(entry, 'type');
    const wanted = def ? def.type || defaultValueType(def.format) : format ? defaultValueType(format) : undefined;
    const setType = (title: string): QuickFix[] =>
      wanted ? [{ kind: 'edit', title, edits: editsFor(text, ['input', index, 'type'], wanted, layout), preferred: true }] : [];
    if (!typeN) {
      c.add(
        'type-missing',
        'error',
        anchor,
        inputName
          ? l10n.t('Input "{0}" has no "type" (always required: url, string, number or boolean).', inputName)
          : l10n.t('The input has no "type" (always required: url, string, number or boolean).'),
        setType(l10n.t('Add "type": "{0}"', wanted ?? '')),
      );
    } else if (typeN.type !== 'string' || !VALUE_TYPES.includes(String(typeN.value))) {
      c.add(
        'type-invalid',
        'error',
        typeN,
        l10n.t('"type" must be one of url, string, number, boolean.'),
        setType(l10n.t('Set "type" to "{0}"', wanted ?? '')),
      );
    } else if (def && def.type && typeN.value !== def.type) {
      c.add(
        'type-mismatch',
        'error',
        typeN,
        l10n.t('The spec gives input "{0}" type "{1}", not "{2}".', def.name, def.type, String(typeN.value)),
        setType(l10n.t('Set "type" to "{0}"', def.type)),
      );
    }
    const type = def?.type ?? (typeN?.type === 'string' ? String(typeN.value) : undefined);

    // value (rule 4: always a string)
    const valueN = prop(entry, 'value');
    if (valueN && valueN.type !== 'string') {
      const raw =
        valueN.type === 'object' || valueN.type === 'array' ? JSON.stringify(jsonc().getNodeValue(valueN)) : text.substr(valueN.offset, valueN.length);
      c.add('value-not-string', 'error', valueN, l10n.t('"value" must be a string; its type follows "type" (here: {0}).', valueN.type), [
        {
          kind: 'edit',
          title: l10n.t('Write the value as a string: {0}', JSON.stringify(raw).slice(0, 40)),
          edits: replace(valueN, JSON.stringify(raw)),
          preferred: true,
        },
      ]);
    }
    const value = valueN?.type === 'string' ? String(valueN.value) : undefined;
    const stacN = prop(entry, 'stac_url');
    if (stacN && stacN.type !== 'string') c.add('stac-url-not-string', 'error', stacN, l10n.t('"stac_url" must be a string (a reference to an archive item).'));
    const stacUrl = stacN?.type === 'string' ? String(stacN.value) : undefined;

    const kind = scalarKindOf(format, type);
    if (format !== undefined && LINEAGE_FORMATS.has(format)) {
      checkLineage(c, text, layout, lineage, index, entry, anchor, inputName, format, valueN !== undefined, stacN !== undefined, stacUrl);
    } else if (kind) {
      if (!valueN) c.add('value-missing', 'error', anchor, inputName ? l10n.t('Input "{0}" has no "value".', inputName) : l10n.t('The input has no "value".'));
      else if (value !== undefined && kind !== 'string') {
        const parsedValue = parseScalar(kind, value);
        if (!parsedValue.ok) {
          const code: DiagnosticCode = kind === 'date' ? 'date-invalid' : kind === 'number' ? 'number-invalid' : 'boolean-invalid';
          c.add(code, 'error', valueN, l10n.t('{0}.', parsedValue.reason));
        }
      }
      // A date-formatted input whose type is number (or the reverse) gets both checks.
      if (value !== undefined && (type === 'number' || type === 'boolean') && kind !== type) {
        const again = parseScalar(type, value);
        if (!again.ok) c.add(type === 'number' ? 'number-invalid' : 'boolean-invalid', 'error', valueN!, l10n.t('{0}.', again.reason));
      }
    }
  });

  if (defs) {
    for (const def of defs) {
      if (isRequired(def) && !present.has(def.name)) {
        const insertAt = entries.length;
        c.add('input-required-missing', 'error', inputKey, l10n.t('Required input "{0}" ({1}) is missing.', def.name, def.format), [
          {
            kind: 'edit',
            title: l10n.t('Add input "{0}" from the spec', def.name),
            edits: editsFor(text, ['input', insertAt], skeletonOf(def), layout, true),
            preferred: true,
          },
        ]);
      }
    }
  }
  return c.out;
}

/** The first complete `asset_source` given for each `stac_url`, indexed on first use. */
class LineageSources {
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

/** Rules 2, 3 and 5: lineage of raster and vector inputs. */
function checkLineage(
  c: Collector,
  text: string,
  layout: LayoutOptions,
  lineage: LineageSources,
  index: number,
  entry: Node,
  anchor: { offset: number; length: number },
  inputName: string | undefined,
  format: string,
  hasValue: boolean,
  hasStac: boolean,
  stacUrl: string | undefined,
): void {
  const label = inputName ? l10n.t('{0} input "{1}"', format, inputName) : l10n.t('This {0} input', format);
  const srcN = prop(entry, 'asset_source');
  if (!srcN) {
    const fixes: QuickFix[] = [];
    // Another input that references the same asset already names its lineage: reuse it.
    const known = stacUrl !== undefined ? lineage.sourceFor(stacUrl) : undefined;
    if (known) {
      fixes.push({
        kind: 'edit',
        title: l10n.t('Add asset_source {0} {1} (as another input with this stac_url)', known.type, known.id),
        edits: editsFor(text, ['input', index, 'asset_source'], known, layout),
        preferred: true,
      });
    }
    fixes.push({ kind: 'pick-asset-source', title: l10n.t('Add asset_source from an AOI asset…'), inputIndex: index });
    c.add('asset-source-missing', 'error', anchor, l10n.t('{0} needs "asset_source" {id, type} (rule 5).', label), fixes);
    if (!hasValue && !hasStac) c.add('value-missing', 'error', anchor, l10n.t('{0} has neither "value" nor "stac_url".', label));
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
      const edits = typeN ? replace(typeN, JSON.stringify(t)) : editsFor(text, ['input', index, 'asset_source', 'type'], t, layout);
      fixes.push({ kind: 'edit', title: l10n.t('Set asset_source.type to "{0}"', t), edits, preferred: t === guess });
    }
    c.add(
      'asset-source-type',
      'error',
      typeN ?? keyOf(srcN) ?? srcN,
      l10n.t('"asset_source.type" must be "raw_mosaic" (an AOI asset) or "model_output" (an insight\'s output).'),
      fixes,
    );
    if (!hasValue && !hasStac) c.add('value-missing', 'error', anchor, l10n.t('{0} has neither "value" nor "stac_url".', label));
    return;
  }
  if (srcType === 'raw_mosaic' && !hasStac) {
    c.add('raw-mosaic-without-stac-url', 'error', typeN!, l10n.t('{0} comes from an AOI asset (raw_mosaic) and needs "stac_url" (rule 2).', label));
  }
  if (srcType === 'model_output' && !hasValue) {
    c.add(
      'model-output-without-value',
      'error',
      typeN!,
      l10n.t('{0} comes from an insight\'s output (model_output) and needs "value", the output\'s storage URL (rule 3).', label),
    );
  }
}

/** Parses and validates in one step (what the tests and the publisher call). */
export function validateInsightText(text: string, lookup: SpecLookup | undefined, layout?: LayoutOptions): InsightDiagnostic[] {
  return validateInsight(parseInsight(text), lookup, layout);
}
