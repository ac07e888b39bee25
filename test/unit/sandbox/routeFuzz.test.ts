/**
 * Every sandbox route fuzzed under an event-loop monitor (bounded in count and time): no 5xx,
 * no dropped connection, and no request holds the event loop for long (the sandbox can run
 * inside the extension host). The bound here is loose, for any machine; `npm run bench`
 * (test/bench/sandboxStalls.bench.ts) prints the figures against the 100 ms goal.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { fuzzEveryRoute } from './routeFuzz';

let sb: SandboxHandle;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 11 });
});
after(() => sb.close());

describe('every route, fuzzed, under an event-loop monitor', () => {
  it('answers every request without a 5xx, and no request holds the event loop for a second', { timeout: 240_000 }, async () => {
    const report = await fuzzEveryRoute(sb, { seed: 20250101, requests: 220, timeLimitMs: 90_000, concurrency: 4 });
    assert.equal(report.routesAsked, report.routesTotal, 'every route was asked');
    assert.deepEqual(report.failures, []);
    assert.ok((report.statuses[400] ?? 0) > 20, JSON.stringify(report.statuses));
    assert.ok((report.statuses[200] ?? 0) + (report.statuses[206] ?? 0) > 50, JSON.stringify(report.statuses));
    assert.ok(report.maxStallCpuMs < 1000, `the event loop was held for ${report.maxStallCpuMs} ms of CPU: ${JSON.stringify(report.stalls[0])}`);
    const ping = await fetch(`${sb.url}/ping`);
    assert.equal(await ping.json(), 'pong');
  });
});
