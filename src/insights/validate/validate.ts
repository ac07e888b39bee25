/**
 * The one parser for insight files, and the validator: the header (header.ts), then the
 * inputs (inputs.ts, lineage.ts), each adding diagnostics with their quick fixes (collect.ts).
 */
import type { Node, ParseError } from 'jsonc-parser';
import * as l10n from '@vscode/l10n';
import { firstTooDeep } from '../../api/jsonDepth';
import { jsonc } from '../jsonc';
import { Collector } from './collect';
import { checkBlock, checkName, resolveSpec } from './header';
import { fastParseTree } from './fastTree';
import { checkInputs } from './inputs';
import type { InsightDiagnostic, LayoutOptions, SpecLookup } from './types';

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
  // A byte-order mark becomes a space: the same length, so every offset stays right.
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  // Well-formed files within the nesting limit take the fast path, which checks the depth as
  // it goes; anything else is scanned for depth first, then gets jsonc-parser's error recovery.
  const fast = fastParseTree(source, MAX_NESTING);
  if (fast) return { text, root: fast, errors: [] };
  const deep = firstTooDeep(text, MAX_NESTING);
  if (deep !== undefined) return { text, root: undefined, errors: [], tooDeep: { offset: deep } };
  const errors: ParseError[] = [];
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
  checkName(c, root, docStart);
  const block = checkBlock(c, root, docStart);
  const spec = resolveSpec(c, lookup, block, docStart);
  checkInputs(c, { text, layout }, root, docStart, spec);
  return c.out;
}

/** Parses and validates in one step (what the tests and the publisher call). */
export function validateInsightText(text: string, lookup: SpecLookup | undefined, layout?: LayoutOptions): InsightDiagnostic[] {
  return validateInsight(parseInsight(text), lookup, layout);
}
