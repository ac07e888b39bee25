/**
 * The file's `input` array: each entry's name, format, type and value (rules 4 and 6), its
 * lineage for raster and vector inputs (lineage.ts), and, with the block's spec, the inputs the
 * spec does not know and the required ones the file lacks.
 */
import type { Node } from 'jsonc-parser';
import * as l10n from '@vscode/l10n';
import { jsonc } from '../jsonc';
import { fill } from './fill';
import type { BlockSpec, InputDefinition } from '../../api/records';
import { isRequired } from '../build/choices';
import { defaultValueType, parseScalar, scalarKindOf } from '../build/scalars';
import { type Anchor, type Collector, editsFor, type FileText, keyOf, prop, replace, skeletonOf } from './collect';
import { checkLineage, LineageSources } from './lineage';
import type { DiagnosticCode, QuickFix } from './types';
import { NameList } from '../../nameMatch';

const VALUE_TYPES = ['url', 'string', 'number', 'boolean'];
const LINEAGE_FORMATS = new Set(['raster', 'vector']);

/** What the entries' checks share: the spec's inputs, the names seen, lazily built indexes. */
interface InputsScope {
  c: Collector;
  file: FileText;
  entries: Node[];
  spec: BlockSpec | undefined;
  defs: InputDefinition[] | undefined;
  byName: Map<string, InputDefinition>;
  present: Set<string>;
  // Built on first need, once per file: per-input scans of every input made this quadratic.
  inputList?: string;
  /** The spec's inputs no entry names: the only candidates for "Rename to". */
  unused?: NameList<InputDefinition>;
  lineage: LineageSources;
}

/** One entry being checked, with what its name says. */
interface Entry {
  node: Node;
  index: number;
  anchor: Anchor;
  inputName: string | undefined;
  def: InputDefinition | undefined;
}

export function checkInputs(c: Collector, file: FileText, root: Node, docStart: Anchor, spec: BlockSpec | undefined): void {
  const defs = spec?.inputs;
  const inputNode = prop(root, 'input');
  if (!inputNode) {
    const fixes: QuickFix[] = defs
      ? [
          {
            kind: 'edit',
            title: l10n.t('Add the inputs of the block spec'),
            edits: editsFor(file, ['input'], defs.filter((d) => isRequired(d)).map(skeletonOf)),
          },
        ]
      : [];
    c.add('input-missing', 'error', docStart, l10n.t('The file has no "input" array.'), fixes);
    return;
  }
  if (inputNode.type !== 'array') {
    c.add('input-missing', 'error', inputNode, l10n.t('"input" must be an array of input values.'));
    return;
  }
  const entries = inputNode.children ?? [];
  const spans = new Int32Array(entries.length * 2);
  entries.forEach((e, i) => {
    spans[2 * i] = e.offset;
    spans[2 * i + 1] = e.offset + e.length;
  });
  const scope: InputsScope = {
    c,
    file: { ...file, spans },
    entries,
    spec,
    defs,
    byName: new Map<string, InputDefinition>((defs ?? []).map((d) => [d.name, d])),
    present: new Set<string>(),
    lineage: new LineageSources(entries),
  };
  entries.forEach((node, index) => checkEntry(scope, node, index));
  if (defs) checkRequired(scope, keyOf(inputNode) ?? inputNode);
}

function checkEntry(s: InputsScope, node: Node, index: number): void {
  if (node.type !== 'object') {
    s.c.add('input-entry-not-object', 'error', node, l10n.t('Each input is an object {format, name, type, description, ...}.'));
    return;
  }
  const entry = checkEntryName(s, node, index);
  const format = checkFormat(s, entry);
  const type = checkType(s, entry, format);
  checkValue(s, entry, format, type);
}

/** The entry's name: present, not repeated, known to the spec (else close names offered). */
function checkEntryName(s: InputsScope, node: Node, index: number): Entry {
  const { c } = s;
  const nameN = prop(node, 'name');
  const anchor = nameN ?? { offset: node.offset, length: 1 };
  if (nameN?.type !== 'string') {
    c.add('input-name-missing', 'error', anchor, l10n.t('The input has no "name" string.'));
  }
  const inputName = nameN?.type === 'string' ? String(nameN.value) : undefined;
  const def = inputName !== undefined ? s.byName.get(inputName) : undefined;
  if (inputName !== undefined) {
    if (s.present.has(inputName)) c.add('input-duplicate', 'error', nameN!, fill(l10n.t('Input "{0}" appears more than once.'), inputName));
    s.present.add(inputName);
    if (s.defs && !def) checkUnknownName(s, nameN!, inputName, index);
  }
  return { node, index, anchor, inputName, def };
}

function checkUnknownName(s: InputsScope, nameN: Node, inputName: string, index: number): void {
  const defs = s.defs!;
  const fixes: QuickFix[] = [];
  if (!s.unused) {
    const namesInFile = new Set(s.entries.map((e) => prop(e, 'name')?.value));
    s.unused = new NameList(
      defs.filter((d) => !namesInFile.has(d.name)),
      (d) => [d.name],
    );
  }
  const close = s.unused.closest(inputName, { n: 3, max: Math.max(2, Math.floor(inputName.length / 3)) });
  for (const { item: d } of close) {
    fixes.push({
      kind: 'edit',
      get title() {
        return fill(l10n.t('Rename to "{0}"'), d.name);
      },
      edits: replace(nameN, JSON.stringify(d.name)),
      preferred: fixes.length === 0,
    });
  }
  fixes.push({
    kind: 'edit',
    get title() {
      return fill(l10n.t('Remove input "{0}"'), inputName);
    },
    edits: editsFor(s.file, ['input', index], undefined),
  });
  s.inputList ??= defs.map((d) => d.name).join(', ');
  s.c.add(
    'input-unknown',
    'error',
    nameN,
    s.spec
      ? fill(l10n.t('Block {0} {1} has no input "{2}" (inputs: {3}).'), s.spec.name, s.spec.version, inputName, s.inputList)
      : fill(l10n.t('The block has no input "{0}" (inputs: {1}).'), inputName, s.inputList),
    fixes,
  );
}

/** The format the spec gives (a different one in the file is an error); else the file's. */
function checkFormat(s: InputsScope, { node, def }: Entry): string | undefined {
  const formatN = prop(node, 'format');
  const fileFormat = formatN?.type === 'string' ? String(formatN.value) : undefined;
  if (def && formatN && fileFormat !== def.format) {
    s.c.add('format-mismatch', 'error', formatN, fill(l10n.t('The spec gives input "{0}" format "{1}".'), def.name, def.format), [
      {
        kind: 'edit',
        get title() {
          return fill(l10n.t('Set format to "{0}"'), def.format);
        },
        edits: replace(formatN, JSON.stringify(def.format)),
        preferred: true,
      },
    ]);
  }
  return def?.format ?? fileFormat;
}

/** Rule 6: every input has a `type`, one of the four, the spec's when it gives one. */
function checkType(s: InputsScope, { node, index, anchor, inputName, def }: Entry, format: string | undefined): string | undefined {
  const { c } = s;
  const typeN = prop(node, 'type');
  const wanted = def ? def.type || defaultValueType(def.format) : format ? defaultValueType(format) : undefined;
  const setType = (title: () => string): QuickFix[] =>
    wanted
      ? [
          {
            kind: 'edit',
            get title() {
              return title();
            },
            edits: editsFor(s.file, ['input', index, 'type'], wanted),
            preferred: true,
          },
        ]
      : [];
  if (!typeN) {
    c.add(
      'type-missing',
      'error',
      anchor,
      inputName
        ? fill(l10n.t('Input "{0}" has no "type" (always required: url, string, number or boolean).'), inputName)
        : l10n.t('The input has no "type" (always required: url, string, number or boolean).'),
      setType(() => fill(l10n.t('Add "type": "{0}"'), wanted ?? '')),
    );
  } else if (typeN.type !== 'string' || !VALUE_TYPES.includes(String(typeN.value))) {
    c.add(
      'type-invalid',
      'error',
      typeN,
      l10n.t('"type" must be one of url, string, number, boolean.'),
      setType(() => fill(l10n.t('Set "type" to "{0}"'), wanted ?? '')),
    );
  } else if (def && def.type && typeN.value !== def.type) {
    c.add(
      'type-mismatch',
      'error',
      typeN,
      fill(l10n.t('The spec gives input "{0}" type "{1}", not "{2}".'), def.name, def.type, String(typeN.value)),
      setType(() => fill(l10n.t('Set "type" to "{0}"'), def.type)),
    );
  }
  return def?.type ?? (typeN?.type === 'string' ? String(typeN.value) : undefined);
}

/** Rule 4: `value` is always a string, read as the format and type say; raster and vector inputs have their lineage. */
function checkValue(s: InputsScope, entry: Entry, format: string | undefined, type: string | undefined): void {
  const { c, file } = s;
  const { node, anchor, inputName } = entry;
  const valueN = prop(node, 'value');
  if (valueN && valueN.type !== 'string') {
    const raw =
      valueN.type === 'object' || valueN.type === 'array' ? JSON.stringify(jsonc().getNodeValue(valueN)) : file.text.substr(valueN.offset, valueN.length);
    c.add('value-not-string', 'error', valueN, fill(l10n.t('"value" must be a string; its type follows "type" (here: {0}).'), valueN.type), [
      {
        kind: 'edit',
        get title() {
          return fill(l10n.t('Write the value as a string: {0}'), JSON.stringify(raw).slice(0, 40));
        },
        edits: replace(valueN, JSON.stringify(raw)),
        preferred: true,
      },
    ]);
  }
  const value = valueN?.type === 'string' ? String(valueN.value) : undefined;
  const stacN = prop(node, 'stac_url');
  if (stacN && stacN.type !== 'string') c.add('stac-url-not-string', 'error', stacN, l10n.t('"stac_url" must be a string (a reference to an archive item).'));
  const stacUrl = stacN?.type === 'string' ? String(stacN.value) : undefined;

  const kind = scalarKindOf(format, type);
  if (format !== undefined && LINEAGE_FORMATS.has(format)) {
    checkLineage(c, file, s.lineage, {
      index: entry.index,
      entry: node,
      anchor,
      inputName,
      format,
      hasValue: valueN !== undefined,
      hasStac: stacN !== undefined,
      stacUrl,
    });
  } else if (kind) {
    if (!valueN) c.add('value-missing', 'error', anchor, valueMissing(inputName, inputName === undefined ? undefined : s.byName.get(inputName)));
    else if (value !== undefined && kind !== 'string') {
      const parsedValue = parseScalar(kind, value);
      if (!parsedValue.ok) {
        const code: DiagnosticCode = kind === 'date' ? 'date-invalid' : kind === 'number' ? 'number-invalid' : 'boolean-invalid';
        c.add(code, 'error', valueN, fill(l10n.t('{0}.'), parsedValue.reason));
      }
    }
    // A date-formatted input whose type is number (or the reverse) gets both checks.
    if (value !== undefined && (type === 'number' || type === 'boolean') && kind !== type) {
      const again = parseScalar(type, value);
      if (!again.ok) c.add(type === 'number' ? 'number-invalid' : 'boolean-invalid', 'error', valueN!, fill(l10n.t('{0}.'), again.reason));
    }
  }
}

/** What the spec says an input is, for a message: its description, bounded (the service wrote it). */
function meaning(def: InputDefinition): string {
  const d = def.description.trim();
  return d.length > 200 ? `${d.slice(0, 199)}…` : d;
}

/** An input without a value: whether the spec requires it, and what it is for. */
function valueMissing(inputName: string | undefined, def: InputDefinition | undefined): string {
  if (inputName === undefined) return l10n.t('The input has no "value".');
  if (!def) return fill(l10n.t('Input "{0}" has no "value".'), inputName);
  const what = isRequired(def) ? fill(l10n.t('required, {0}'), def.format) : fill(l10n.t('optional, {0}'), def.format);
  return meaning(def)
    ? fill(l10n.t('Input "{0}" has no "value" ({1}): {2}'), inputName, what, meaning(def))
    : fill(l10n.t('Input "{0}" has no "value" ({1}).'), inputName, what);
}

/** The spec's required inputs the file lacks, each with a fix that adds it from the spec. */
function checkRequired(s: InputsScope, inputKey: Anchor): void {
  for (const def of s.defs ?? []) {
    if (isRequired(def) && !s.present.has(def.name)) {
      const insertAt = s.entries.length;
      const message = meaning(def)
        ? fill(l10n.t('Required input "{0}" ({1}) is missing: {2}'), def.name, def.format, meaning(def))
        : fill(l10n.t('Required input "{0}" ({1}) is missing.'), def.name, def.format);
      s.c.add('input-required-missing', 'error', inputKey, message, [
        {
          kind: 'edit',
          get title() {
            return fill(l10n.t('Add input "{0}" from the spec'), def.name);
          },
          edits: editsFor(s.file, ['input', insertAt], skeletonOf(def), true),
          preferred: true,
        },
      ]);
    }
  }
}
