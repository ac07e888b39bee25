/**
 * The check command's work, without VS Code: find the extension's files, check each offline
 * with the extension's own checks (order plans, insight inputs, saved searches, shared
 * views), and, when asked and given a token, price order plans and estimate insight runs.
 * `Pricer` is all of the service it can reach: a dry run and an estimate. There is no code
 * path here that places an order or runs anything.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import type { EoClient, OrderItemRequest, OrderRecord } from '../api';
import { fromSearchFile } from '../commands/searchFiles/searchFile';
import { readViewFile } from '../commands/shareView/view';
import { INSIGHT_FILE_SUFFIX, PLAN_FILE_SUFFIX, SEARCH_FILE_SUFFIX, VIEW_FILE_SUFFIX } from '../fileKinds';
import { jsonc } from '../insights/jsonc';
import { insightValue, parseInsight, validateInsight } from '../insights/validate/validate';
import { checkPlanText } from '../plans/checkPlan';
import { requestOf } from '../plans/planFile';
import { summarizeOrder, validationMessages } from '../commands/orders/orderSummary';

export type FileKind = 'order plan' | 'insight input' | 'saved search' | 'shared view';
export const KINDS: readonly [string, FileKind][] = [
  [PLAN_FILE_SUFFIX, 'order plan'],
  [INSIGHT_FILE_SUFFIX, 'insight input'],
  [SEARCH_FILE_SUFFIX, 'saved search'],
  [VIEW_FILE_SUFFIX, 'shared view'],
];
const SKIP_DIRS = new Set(['node_modules', '.git', 'out', 'dist']);

export interface Problem {
  severity: 'error' | 'warning' | 'info';
  line: number;
  column: number;
  message: string;
  code: string;
}

export interface FileResult {
  file: string;
  kind: FileKind;
  problems: Problem[];
  /** "1,234.00 EUR" for a priced plan, "42 tokens" for an estimated run. */
  cost?: string;
  /** Why it was not priced (no token, problems, no AOI for an insight). */
  costNote?: string;
}

/** What the command may ask of the service: a dry run and an estimate, nothing that spends. */
export interface Pricer {
  /** `POST /v0/orders` with `dry_run: true`, always. */
  dryRun(items: OrderItemRequest[]): Promise<OrderRecord>;
  estimateInsight(body: { name: string; block: { name: string; version: string }; input: unknown[] }): Promise<number>;
  close(): Promise<void>;
}

/** The only pricer the command builds: its requests carry `dry_run: true` and `estimate: true`. */
export function pricerOf(client: EoClient, aoiId: string | undefined): Pricer {
  let aoi: Promise<{ aoi_id: string; project_id: string }> | undefined;
  return {
    dryRun: (order_items) => client.orders.create({ dry_run: true, order_items }),
    async estimateInsight(body) {
      if (!aoiId) throw new Error('give --aoi ID to estimate insight runs');
      const a = await (aoi ??= client.aois.get(aoiId));
      return client.insightRuns.estimate(a.aoi_id, { name: body.name, project_id: a.project_id, block: body.block, input: body.input as never });
    },
    close: () => client.close(),
  };
}

export function kindOf(file: string): FileKind | undefined {
  return KINDS.find(([suffix]) => file.endsWith(suffix))?.[1];
}

/** The files named, and in the folders named every file of the four kinds (outside node_modules, .git, out, dist). */
export async function findFiles(args: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && !SKIP_DIRS.has(e.name)) await walk(p);
      else if (e.isFile() && kindOf(e.name)) out.push(p);
    }
  };
  for (const a of args) {
    const stat = await fs.stat(a);
    if (stat.isDirectory()) await walk(a);
    else out.push(a);
  }
  return [...new Set(out)];
}

/** Line and column (1-based) of an offset. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

function syntaxProblems(text: string): Problem[] {
  const errors: ParseError[] = [];
  jsonc().parseTree(text, errors, { allowTrailingComma: true });
  return errors.map((e) => ({
    severity: 'error',
    ...positionOf(text, e.offset),
    message: `The file is not valid JSON (${jsonc().printParseErrorCode(e.error)}).`,
    code: 'json-syntax',
  }));
}

const atStart = (message: string, code: string): Problem => ({ severity: 'error', line: 1, column: 1, message, code });

/** Checks one file offline; with a pricer, prices a clean plan or estimates a clean insight input. */
export async function checkFile(file: string, pricer: Pricer | undefined, unit: string): Promise<FileResult> {
  const kind = kindOf(file) ?? 'order plan';
  const text = await fs.readFile(file, 'utf8');
  const result: FileResult = { file, kind, problems: syntaxProblems(text) };
  if (result.problems.length) return result;
  const located = (d: { severity: Problem['severity']; offset: number; message: string; code: string }): Problem => ({
    severity: d.severity,
    ...positionOf(text, d.offset),
    message: d.message,
    code: d.code,
  });
  if (kind === 'order plan') {
    const checked = checkPlanText(text);
    result.problems.push(...checked.diagnostics.map(located));
    if (pricer && checked.plan && !result.problems.some((p) => p.severity === 'error')) {
      const priced = await pricer.dryRun(requestOf(checked.plan));
      const summary = summarizeOrder(priced, { unit });
      result.cost = summary.headline.replace(/^.* · total amount /, '');
      (priced.order_items ?? []).forEach((item, i) => {
        for (const m of validationMessages(item))
          result.problems.push({ ...positionAtItem(text, i), severity: m.warning ? 'warning' : 'error', message: m.text, code: 'dry-run' });
        if (item.feasibility_status === 'FAILED')
          result.problems.push({ ...positionAtItem(text, i), severity: 'error', message: `Item ${i + 1} is not feasible (dry run).`, code: 'dry-run' });
      });
    }
  } else if (kind === 'insight input') {
    const parsed = parseInsight(text);
    result.problems.push(...validateInsight(parsed, undefined).map(located));
    if (pricer && !result.problems.some((p) => p.severity === 'error')) {
      const value = insightValue(parsed) as { name: string; block: { name: string; version: string }; input: unknown[] };
      try {
        result.cost = `${(await pricer.estimateInsight(value)).toLocaleString('en-US')} tokens`;
      } catch (err) {
        // Recovers: without an AOI the run cannot be estimated; the offline checks stand.
        if (!(err instanceof Error && err.message.startsWith('give --aoi'))) throw err;
        result.costNote = err.message;
      }
    }
  } else if (kind === 'saved search') {
    const read = fromSearchFile(jsonc().parse(text, [], { allowTrailingComma: true }));
    if ('errors' in read) result.problems.push(...read.errors.map((e) => atStart(e, 'search')));
  } else {
    const read = readViewFile(text);
    if ('error' in read) result.problems.push(atStart(read.error, 'view'));
  }
  return result;
}

function positionAtItem(text: string, i: number): { line: number; column: number } {
  const root = jsonc().parseTree(text);
  const node = root && jsonc().findNodeAtLocation(root, ['items', i]);
  return positionOf(text, node?.offset ?? 0);
}
