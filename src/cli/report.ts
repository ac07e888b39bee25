/**
 * What the check command writes: one line per problem (`file:line:col: severity: message
 * [code]`, which the VS Code task's problem matcher reads), a table of the files, GitHub
 * Actions annotations and JUnit XML. Pure.
 */
import type { FileResult } from './checkFiles';

type Rel = (file: string) => string;

/** Text from a file or the service on one line: a message can never start a line of its own. */
const oneLine = (s: string): string => s.replace(/[\r\n\t]+/g, ' ');

export function problemLines(results: readonly FileResult[], rel: Rel): string[] {
  return results.flatMap((r) => r.problems.map((p) => `${rel(r.file)}:${p.line}:${p.column}: ${p.severity}: ${oneLine(p.message)} [${p.code}]`));
}

function counted(r: FileResult): string {
  const n = (sev: string): number => r.problems.filter((p) => p.severity === sev).length;
  const parts = [
    [n('error'), 'error'],
    [n('warning'), 'warning'],
  ]
    .filter(([c]) => c)
    .map(([c, w]) => `${c} ${w}${c === 1 ? '' : 's'}`);
  return parts.length ? parts.join(', ') : 'ok';
}

/** The files, their kind, what was found and what each costs, in aligned columns. */
export function table(results: readonly FileResult[], rel: Rel): string {
  const rows = [['File', 'Kind', 'Result', 'Price'], ...results.map((r) => [rel(r.file), r.kind, counted(r), r.cost ?? r.costNote ?? ''])];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row: string[]): string =>
    row
      .map((cell, c) => cell.padEnd(widths[c]))
      .join('  ')
      .trimEnd();
  const errors = results.filter((r) => r.problems.some((p) => p.severity === 'error')).length;
  const foot = `${results.length} file${results.length === 1 ? '' : 's'} checked, ${errors} with errors.`;
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), '', foot].join('\n');
}

const ghData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghProperty = (s: string): string => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=…,line=…,col=…,title=…::message`, GitHub Actions' workflow commands. */
export function githubAnnotations(results: readonly FileResult[], rel: Rel): string[] {
  const level = { error: 'error', warning: 'warning', info: 'notice' } as const;
  return results.flatMap((r) =>
    r.problems.map(
      (p) =>
        `::${level[p.severity]} file=${ghProperty(rel(r.file))},line=${p.line},col=${p.column},title=${ghProperty(`EO Imagery ${r.kind}: ${p.code}`)}::${ghData(p.message)}`,
    ),
  );
}

const xml = (s: string): string =>
  // Characters XML 1.0 cannot hold at all are dropped; the rest are escaped.
  s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);

/** One test case per file, failed when it has errors; warnings go to its system-out. */
export function junitXml(results: readonly FileResult[], rel: Rel): string {
  const failures = results.filter((r) => r.problems.some((p) => p.severity === 'error')).length;
  const cases = results.map((r) => {
    const errors = r.problems.filter((p) => p.severity === 'error');
    const others = r.problems.filter((p) => p.severity !== 'error');
    const name = xml(rel(r.file));
    const body = [
      errors.length
        ? `      <failure message="${xml(`${errors.length} error(s)`)}">${xml(errors.map((p) => `${rel(r.file)}:${p.line}:${p.column}: ${p.message} [${p.code}]`).join('\n'))}</failure>`
        : '',
      others.length || r.cost
        ? `      <system-out>${xml([...(r.cost ? [`Price: ${r.cost}`] : []), ...others.map((p) => `${p.severity}: ${p.message}`)].join('\n'))}</system-out>`
        : '',
    ].filter(Boolean);
    return body.length
      ? `    <testcase classname="${xml(r.kind)}" name="${name}">\n${body.join('\n')}\n    </testcase>`
      : `    <testcase classname="${xml(r.kind)}" name="${name}"/>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="eo-imagery-check" tests="${results.length}" failures="${failures}">`,
    `  <testsuite name="eo-imagery-check" tests="${results.length}" failures="${failures}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
