// The check command (`npm run check`, dist/check.js) on a folder of plans and inputs: offline
// problems with their places, exit codes, GitHub annotations and JUnit XML; with --price the
// sandbox's dry-run amounts; and no code path that places or runs anything, even when asked.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EoClient, type Aoi, type Bandset, type Project } from '../../../src/api';
import { main } from '../../../src/cli/check';
import { amount } from '../../../src/format';
import { requestOf, type OrderPlan } from '../../../src/plans/planFile';
import { planText } from '../../../src/plans/planWrite';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { samplePlan } from '../plans/samplePlan';

const ROOT = path.resolve(__dirname, '../../../..');

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    env,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-check-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const latePlan = (): string => planText(samplePlan()).replace('"end": "2025-06-15"', '"end": "2025-05-15"');

describe('check command, offline', () => {
  const insight = JSON.stringify({ name: 'ndvi', block: { name: 'ndvi', version: '1.0' }, input: [] }, null, 2);
  const dir = folder({
    'plans/good.eoorder.json': planText(samplePlan()),
    'plans/late.eoorder.json': latePlan(),
    'inputs/ndvi.insight.json': insight,
    'bad.eosearch.json': '{"kind": "x"}',
    'node_modules/skipped.eoorder.json': '[]',
    'notes.json': '{}',
  });

  it('checks every file of the four kinds in the folders named, and exits 1 on an error', async () => {
    const r = await run([dir]);
    assert.equal(r.code, 1);
    assert.match(r.out, /good\.eoorder\.json +order plan +ok/);
    assert.match(r.out, /ndvi\.insight\.json +insight input +ok/);
    assert.match(r.out, /late\.eoorder\.json +order plan +1 error/);
    assert.match(r.out, /bad\.eosearch\.json +saved search +2 errors/);
    assert.doesNotMatch(r.out, /skipped|notes\.json/);
    assert.match(r.out, /4 files checked, 2 with errors\./);
  });

  it('exits 0 when there is no error, and says where each problem is, as the problem matcher reads it', async () => {
    assert.equal((await run([path.join(dir, 'plans', 'good.eoorder.json')])).code, 0);
    const r = await run([path.join(dir, 'plans', 'late.eoorder.json')]);
    const line = latePlan()
      .split('\n')
      .findIndex((l) => l.includes('"end": "2025-05-15"'));
    const col = latePlan().split('\n')[line].indexOf('"2025-05-15"') + 1;
    assert.match(r.out, new RegExp(`late\\.eoorder\\.json:${line + 1}:${col}: error: The end .* must be after the start .* \\[order-rule\\]`));
  });

  it('writes GitHub annotations and JUnit XML on request', async () => {
    const junit = path.join(dir, 'report.xml');
    const r = await run(['--github', '--junit', junit, dir]);
    assert.match(r.out, /^::error file=.*late\.eoorder\.json,line=\d+,col=\d+,title=EO Imagery order plan%3A order-rule::The end /m);
    const xml = fs.readFileSync(junit, 'utf8');
    assert.match(xml, /<testsuite name="eo-imagery-check" tests="4" failures="2">/);
    assert.match(xml, /<testcase classname="order plan" name="[^"]*good\.eoorder\.json"\/>/);
    assert.match(xml, /<failure message="1 error\(s\)">/);
  });

  it('runs as the bundled dist/check.js, without VS Code', { skip: !fs.existsSync(path.join(ROOT, 'dist', 'check.js')) }, async () => {
    const exec = promisify(execFile);
    const ok = await exec(process.execPath, [path.join(ROOT, 'dist', 'check.js'), path.join(dir, 'plans', 'good.eoorder.json')]);
    assert.match(ok.stdout, /1 file checked, 0 with errors\./);
    await assert.rejects(exec(process.execPath, [path.join(ROOT, 'dist', 'check.js'), dir]), (e: { code?: number }) => e.code === 1);
  });

  it('refuses usage it does not know, and --price without a token', async () => {
    assert.equal((await run([])).code, 2);
    assert.equal((await run(['--frobnicate', dir])).code, 2);
    const r = await run(['--price', dir], { EO_API_URL: 'http://127.0.0.1:9' });
    assert.equal(r.code, 2);
    assert.match(r.err, /EO_API_TOKEN/);
  });
});

describe('check command, --price against the sandbox', () => {
  let sb: SandboxHandle;
  let client: EoClient;
  let plan: OrderPlan;
  before(async () => {
    sb = await startSandbox({ port: 0 });
    client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'test', timeoutMs: 10_000 });
    const project: Project = (await client.projects.listPage()).items[0];
    const aoi: Aoi = (await client.aois.listPage({ limit: 1 })).items[0];
    const bandset: Bandset = (await client.bandsets.list())[0];
    const scenes = (await client.archives.search({ intersects: aoi.geometry, limit: 2 })).features;
    assert.ok(scenes.length, 'the sandbox has archive scenes over its AOIs');
    const day = 86_400_000;
    const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
    plan = {
      name: 'CI plan',
      project: { id: project.id, name: project.title || project.name },
      usecase: 'agriculture',
      items: [
        {
          kind: 'tasking',
          name: 'Next month',
          aoi: { id: aoi.aoi_id, name: aoi.name },
          geometry: aoi.geometry,
          start: iso(Date.now() + 2 * day),
          end: iso(Date.now() + 30 * day),
          recurrence: 'ONCE',
          occurrences: 1,
          bandset: { id: bandset.id, name: bandset.name },
          cloudCover: 20,
          offNadir: 30,
          speed: 'STANDARD',
        },
        ...(scenes.length
          ? [{ kind: 'archive' as const, name: 'Scenes', geometry: aoi.geometry, scenes: scenes.map((s) => ({ collection: s.collection ?? '', id: s.id })) }]
          : []),
      ],
    };
  });
  after(async () => {
    await client?.close();
    await sb?.close();
  });

  it('prices each plan with a dry run: the amount is the service\u2019s, and nothing is ordered', async () => {
    const dir = folder({ 'a.eoorder.json': planText(plan), 'b.eoorder.json': planText({ ...plan, name: 'Second' }), 'late.eoorder.json': latePlan() });
    const expected = await client.orders.create({ dry_run: true, order_items: requestOf(plan) });
    const ordersBefore = sb.state.orders.length;
    const postsBefore = sb.requests.filter((r) => r === 'POST /v0/orders').length;
    const r = await run(['--price', '--unit', 'EUR', dir], { EO_API_TOKEN: sb.tokens.alice, EO_API_URL: sb.url });
    assert.equal(r.code, 1, r.out);
    const money = amount(expected.total_amount, 'EUR');
    assert.match(r.out, new RegExp(`a\\.eoorder\\.json +order plan +ok +${money.replace(/[.]/g, '\\.')}`));
    assert.match(r.out, new RegExp(`b\\.eoorder\\.json +order plan +ok +${money.replace(/[.]/g, '\\.')}`));
    // The plan with an error is not priced: two dry runs, no order stored.
    assert.equal(sb.requests.filter((x) => x === 'POST /v0/orders').length - postsBefore, 2);
    assert.equal(sb.state.orders.length, ordersBefore);
  });

  it('refuses to place anything, even when asked, and sends nothing', async () => {
    const dir = folder({ 'a.eoorder.json': planText(plan) });
    const before = sb.requests.length;
    for (const flag of ['--place', '--order', '--run', '--confirm', '--yes']) {
      const r = await run(['--price', flag, dir], { EO_API_TOKEN: sb.tokens.alice, EO_API_URL: sb.url });
      assert.equal(r.code, 2, flag);
      assert.match(r.err, /never places orders or runs insights/);
    }
    assert.equal(sb.requests.length, before);
  });
});
