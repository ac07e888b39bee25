#!/usr/bin/env node
// How many `catch` clauses src/commands may hold (issue 40: they grew from 30 to 50). A
// command lets failures go to the command wrapper, which shows each once with a way forward;
// the few it catches are recoveries, each saying what it recovers from (ESLint's
// eo/catch-recovers). Raising the budget is a decision for review, not a side effect.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export const CATCH_BUDGET = 25;

/** Every catch clause under `dir`, as `file:line`. */
export function catchSites(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const walk = (node) => {
      if (ts.isCatchClause(node)) out.push(`${path.relative(process.cwd(), file)}:${src.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      ts.forEachChild(node, walk);
    };
    walk(src);
  }
  return out.sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sites = catchSites(path.resolve('src/commands'));
  if (sites.length > CATCH_BUDGET) {
    console.error(`src/commands holds ${sites.length} catch clauses; the budget is ${CATCH_BUDGET}:\n  ${sites.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`catch budget: ${sites.length} of ${CATCH_BUDGET} in src/commands`);
}
