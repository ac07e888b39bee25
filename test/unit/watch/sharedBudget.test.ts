/**
 * The watcher's budget shared by the windows of a profile (src/watch/sharedBudget.ts): windows
 * racing for the requests of one minute are granted 20 between them, never more, whether they
 * are two budgets in one process or two processes (two windows are two extension hosts); a
 * hold one window records stops the other; a damaged or missing file is an unused budget; a
 * lock left by a window that died is taken over; a folder that cannot be written leaves each
 * window its own budget.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { SharedBudget } from '../../../src/watch/sharedBudget';

const dirs: string[] = [];
function folder(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-budget-'));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The README's figure, written out: not read from the module under test. */
const PER_MINUTE = 20;

describe('watcher budget shared by the windows of a profile', () => {
  it('two budgets on one folder, 60 takes racing from each: 20 granted between them', async () => {
    const dir = folder();
    const a = new SharedBudget(dir);
    const b = new SharedBudget(dir);
    const now = 1_000_000;
    const takes = [...Array(60)].flatMap(() => [a.take(now), b.take(now)]);
    const granted = (await Promise.all(takes)).filter(Boolean).length;
    assert.equal(granted, PER_MINUTE);
    assert.deepEqual(await a.peek(now + 1), { free: 0, nextFreeAt: now + 60_000 });
    assert.equal((await b.peek(now + 60_000)).free, PER_MINUTE, 'the next minute is free again');
  });

  it('two processes racing (two windows are two extension hosts): 20 granted between them', async () => {
    const dir = folder();
    const module = path.join(__dirname, '..', '..', '..', 'src', 'watch', 'sharedBudget.js');
    const script = `
      const { SharedBudget } = require(${JSON.stringify(module)});
      const b = new SharedBudget(${JSON.stringify(dir)});
      Promise.all([...Array(40)].map(() => b.take(Date.now()))).then((r) => console.log(r.filter(Boolean).length));`;
    const run = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const p = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        p.stdout.on('data', (d: Buffer) => (out += d.toString()));
        p.on('error', reject);
        p.on('exit', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`exit ${code}`))));
      });
    const counts = await Promise.all([run(), run(), run()]);
    assert.equal(
      counts.reduce((x, y) => x + y, 0),
      PER_MINUTE,
      `granted per process: ${counts.join(', ')}`,
    );
  });

  it('a hold recorded by one window stops the other until it ends', async () => {
    const dir = folder();
    const a = new SharedBudget(dir);
    const b = new SharedBudget(dir);
    await a.hold(5_000, 1_000);
    assert.equal(await b.take(4_999), false);
    assert.deepEqual(await b.peek(2_000), { free: 0, nextFreeAt: 5_000 });
    assert.equal(await b.take(5_000), true);
  });

  it('a damaged file is an unused budget; stamps far ahead of the clock are not kept', async () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'watch-requests.json'), '{"v":1,"sent":');
    const b = new SharedBudget(dir);
    assert.equal((await b.peek(0)).free, PER_MINUTE);
    fs.writeFileSync(path.join(dir, 'watch-requests.json'), JSON.stringify({ v: 1, sent: [1e15, 'x', null, 10], heldUntil: 1e15 }));
    assert.deepEqual(await b.peek(20), { free: PER_MINUTE - 1, nextFreeAt: 20 });
  });

  it('a lock left by a window that died is taken over after 10 s; a fresh one is waited for', async () => {
    const dir = folder();
    const lock = path.join(dir, 'watch-requests.lock');
    fs.writeFileSync(lock, '');
    const old = new Date(Date.now() - 11_000);
    fs.utimesSync(lock, old, old);
    const b = new SharedBudget(dir);
    assert.equal(await b.take(0), true, 'the stale lock was removed');
    assert.equal(fs.existsSync(lock), false, 'and the take let go of its own');
    fs.writeFileSync(lock, '');
    const t0 = Date.now();
    assert.equal(await b.take(0), false, 'a lock held longer than the wait: refused, not granted blind');
    assert.ok(Date.now() - t0 >= 1_900, 'after waiting for it');
  });

  it('a folder that cannot be written: each window keeps its own budget, and says so once', async () => {
    const file = path.join(folder(), 'not-a-folder');
    fs.writeFileSync(file, '');
    const warned: string[] = [];
    const b = new SharedBudget(path.join(file, 'below'), undefined, (m) => warned.push(m));
    const granted = (await Promise.all([...Array(30)].map(() => b.take(0)))).filter(Boolean).length;
    assert.equal(granted, PER_MINUTE);
    assert.equal(warned.length, 1);
    assert.match(warned[0], /cannot be shared with other windows/);
  });
});
