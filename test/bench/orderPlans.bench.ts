/**
 * Order plans: (1) the diagnostics of a plan of 1,000 items after an edit (the file's own
 * checks, what the editor publishes on each change), against JSON.parse of the same text;
 * target under 100 ms. (2) The check command (dist/check.js, a fresh Node process, as CI
 * runs it) on 500 files offline (125 each of plans, insight inputs, saved searches, shared
 * views), against a Node process that only reads and JSON.parses the same files; target
 * under 5 s. Medians of several runs, measured side by side.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { toSearchFile } from '../../src/commands/searchFiles/searchFile';
import { checkPlanText } from '../../src/plans/checkPlan';
import type { OrderPlan, PlanItem } from '../../src/plans/planFile';
import { planText } from '../../src/plans/planWrite';
import { readFixture } from '../unit/insights/fixtures';
import { ring, samplePlan } from '../unit/plans/samplePlan';

const RUNS = Number(process.env.BENCH_ROUNDS ?? 9);
const ROOT = path.resolve(__dirname, '../../..');
const round = (n: number): number => Math.round(n * 100) / 100;
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** A plan of `n` items: archive items of three scenes and tasking items, alternating. */
function bigPlan(n: number): OrderPlan {
  const base = samplePlan();
  const items: PlanItem[] = [];
  for (let i = 0; i < n; i++) {
    const item = structuredClone(base.items[i % 2]);
    item.name = `Item ${i + 1}`;
    if (item.kind === 'archive')
      item.scenes = [0, 1, 2].map((k) => ({ collection: 'sentinel-2-l2a', id: `S2A_${i}_${k}`, acquired: '2025-03-01', bbox: [9.9, 9.9, 10.5, 10.5] }));
    items.push(item);
  }
  return { ...base, items };
}

function diagnosticsAfterEdit(): void {
  const text = planText(bigPlan(1000));
  // The edit: one end date moved, as a person types it.
  const edited = text.replace('"end": "2025-06-15"', '"end": "2025-06-16"');
  checkPlanText(text); // warm-up (jsonc-parser, turf, JIT)
  const ours: number[] = [];
  const base: number[] = [];
  let diagnostics = 0;
  for (let r = 0; r < RUNS; r++) {
    let t0 = performance.now();
    JSON.parse(edited);
    base.push(performance.now() - t0);
    t0 = performance.now();
    diagnostics = checkPlanText(edited).diagnostics.length;
    ours.push(performance.now() - t0);
  }
  console.log(
    JSON.stringify({
      bench: 'order-plans',
      figure: 'diagnostics_1000_items_after_edit_ms',
      value: round(median(ours)),
      baseline: 'JSON.parse of the same text',
      baseline_value: round(median(base)),
      ratio: round(median(ours) / Math.max(median(base), 0.001)),
      target_ms: 100,
      within_target: median(ours) < 100,
      bytes: edited.length,
      diagnostics,
      runs: RUNS,
    }),
  );
}

function fiveHundredFiles(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bench-check-'));
  // Clean files, as a team's repository holds them: the bench times checking, not reporting.
  const view = { eoView: 1, host: 'api.example.com', center: { lon: 9.43, lat: 47.61 }, zoom: 11, layers: [], imagery: [] };
  const search = toSearchFile({
    kind: 'archive',
    shape: 'polygon',
    ring: ring.map(([x, y]) => [x, y] as [number, number]),
    collections: ['sentinel-2-l2a'],
    satellites: [],
    from: '2025-01-01',
    to: '2025-12-31',
    maxCloud: 20,
    sort: 'datetime-desc',
    limit: 50,
  });
  const plan = planText(bigPlan(10));
  const insight = readFixture('valid.insight.json');
  for (let i = 0; i < 125; i++) {
    const sub = path.join(dir, `team-${i % 5}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `plan-${i}.eoorder.json`), plan);
    fs.writeFileSync(path.join(sub, `input-${i}.insight.json`), insight);
    fs.writeFileSync(path.join(sub, `search-${i}.eosearch.json`), JSON.stringify(search, null, 2));
    fs.writeFileSync(path.join(sub, `view-${i}.eoview.json`), JSON.stringify(view, null, 2));
  }
  return dir;
}

const READ_ONLY = `
const fs = require('fs'), path = require('path');
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
let n = 0; for (const f of walk(process.argv[1])) { JSON.parse(fs.readFileSync(f, 'utf8')); n++; }
console.log(n);`;

function checkCommand(): void {
  const script = path.join(ROOT, 'dist', 'check.js');
  if (!fs.existsSync(script)) throw new Error('dist/check.js is missing: npm run build');
  const dir = fiveHundredFiles();
  const ours: number[] = [];
  const base: number[] = [];
  let summary = '';
  let status: number | null = null;
  try {
    for (let r = 0; r < Math.min(RUNS, 5); r++) {
      let t0 = performance.now();
      const b = spawnSync(process.execPath, ['-e', READ_ONLY, dir], { encoding: 'utf8' });
      if (b.status !== 0) throw new Error(b.stderr);
      base.push(performance.now() - t0);
      t0 = performance.now();
      const run = spawnSync(process.execPath, [script, dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      ours.push(performance.now() - t0);
      status = run.status;
      summary = /\d+ files checked, \d+ with errors\./.exec(run.stdout)?.[0] ?? run.stderr.slice(0, 200);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    JSON.stringify({
      bench: 'order-plans',
      figure: 'check_command_500_files_offline_ms',
      value: Math.round(median(ours)),
      baseline: 'a Node process reading and JSON.parsing the same 500 files',
      baseline_value: Math.round(median(base)),
      ratio: round(median(ours) / Math.max(median(base), 0.001)),
      target_ms: 5000,
      within_target: median(ours) < 5000,
      summary,
      exit_status: status,
      runs: ours.length,
    }),
  );
}

diagnosticsAfterEdit();
checkCommand();
