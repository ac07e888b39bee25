/**
 * `eo-imagery-check` (`npm run check -- FILES…`): checks order plans, insight inputs, saved
 * searches and shared views without VS Code, for CI. Offline by default; with `--price` and
 * EO_API_TOKEN (and EO_API_URL or `--url`) it also prices order plans (dry run) and, with
 * `--aoi`, estimates insight runs. It prints each problem as `file:line:col: severity:
 * message [code]` (the VS Code task's problem matcher reads these) and a table, writes GitHub
 * annotations (`--github`) and JUnit XML (`--junit FILE`), and exits 1 on any error. It never
 * places an order or runs anything: asked to, it refuses.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { EoClient } from '../api';
import { checkFile, findFiles, kindOf, pricerOf, type FileResult, type Pricer } from './checkFiles';
import { githubAnnotations, junitXml, problemLines, table } from './report';

export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

const USAGE = `Usage: eo-imagery-check [--price] [--url URL] [--aoi ID] [--unit UNIT] [--github] [--junit FILE] FILE|FOLDER…

Checks *.eoorder.json, *.insight.json, *.eosearch.json and *.eoview.json files offline.
  --price        also price order plans (dry run) and estimate insight runs: needs EO_API_TOKEN,
                 and the service's URL in --url or EO_API_URL
  --aoi ID       the AOI insight runs are estimated on
  --unit UNIT    the billing unit shown after amounts (EO_BILLING_UNIT)
  --github       write GitHub Actions annotations (::error file=…,line=…::)
  --junit FILE   write a JUnit XML report
Exit status: 0 no errors, 1 errors found (or pricing failed), 2 usage.
This command never places an order or runs an insight.`;

/** Words that ask for spending: refused by name, so nobody wonders whether they did something. */
const SPENDING = ['--place', '--order', '--run', '--confirm', '--yes', '--buy', '--submit'];

export interface Options {
  files: string[];
  price: boolean;
  url?: string;
  aoi?: string;
  unit: string;
  github: boolean;
  junit?: string;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): Options | { error: string } {
  const o: Options = { files: [], price: false, url: env.EO_API_URL, unit: env.EO_BILLING_UNIT ?? '', github: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string | undefined => argv[++i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const take = (): string | undefined => inline ?? value();
    if (SPENDING.includes(flag)) {
      return {
        error: `${flag}: eo-imagery-check never places orders or runs insights. Place an order plan from VS Code (the "Place Order…" lens), which shows the price and asks first.`,
      };
    }
    if (flag === '--price') o.price = true;
    else if (flag === '--github') o.github = true;
    else if (flag === '--url') o.url = take();
    else if (flag === '--aoi') o.aoi = take();
    else if (flag === '--unit') o.unit = take() ?? '';
    else if (flag === '--junit') o.junit = take();
    else if (flag === '--help' || flag === '-h') return { error: '' };
    else if (flag.startsWith('-')) return { error: `Unknown option ${flag}.` };
    else o.files.push(a);
  }
  if (!o.files.length) return { error: 'Name at least one file or folder.' };
  return o;
}

function pricerFor(o: Options, env: NodeJS.ProcessEnv): Pricer | { error: string } | undefined {
  if (!o.price) return undefined;
  const token = env.EO_API_TOKEN;
  if (!token) return { error: '--price needs the token in EO_API_TOKEN.' };
  if (!o.url) return { error: '--price needs the service URL in --url or EO_API_URL.' };
  const client = new EoClient({ baseUrl: o.url, token, userAgent: 'eo-imagery-check', timeoutMs: 30_000 });
  return pricerOf(client, o.aoi);
}

/** Runs the command; resolves with the exit status. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const o = parseArgs(argv, env);
  if ('error' in o) {
    if (o.error) err(o.error);
    err(USAGE);
    return EXIT.usage;
  }
  const pricer = pricerFor(o, env);
  if (pricer && 'error' in pricer) {
    err(pricer.error);
    return EXIT.usage;
  }
  let files: string[];
  try {
    files = await findFiles(o.files);
  } catch (e) {
    err(`Cannot read ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.usage;
  }
  const results: FileResult[] = [];
  for (const file of files) {
    try {
      results.push(await checkFile(file, pricer, o.unit));
    } catch (e) {
      // Recovers into a problem of that file: one unreadable file or failed dry run does not hide the others.
      const message = e instanceof Error ? e.message : String(e);
      results.push({
        file,
        kind: kindOf(file) ?? 'order plan',
        problems: [{ severity: 'error', line: 1, column: 1, message: `Could not check or price it: ${message}`, code: 'failed' }],
      });
    }
  }
  const rel = (f: string): string => path.relative(process.cwd(), f) || f;
  for (const line of problemLines(results, rel)) out(line);
  out(table(results, rel));
  if (o.github) for (const line of githubAnnotations(results, rel)) out(line);
  if (o.junit) await fs.writeFile(o.junit, junitXml(results, rel));
  return results.some((r) => r.problems.some((p) => p.severity === 'error')) ? EXIT.problems : EXIT.ok;
}

if (require.main === module) {
  void main(
    process.argv.slice(2),
    process.env,
    (s) => process.stdout.write(`${s}\n`),
    (s) => process.stderr.write(`${s}\n`),
  ).then((code) => (process.exitCode = code));
}
