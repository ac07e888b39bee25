/** The sandbox's request log (`--log-requests`): method, path and status as each answer ends; no header, no query. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { startSandbox } from '../../../src/sandbox';

it('logs each answer as METHOD /path STATUS, a dry run apart from a placed order, and no token or query', async () => {
  const lines: string[] = [];
  const sb = await startSandbox({ port: 0, seed: 7, onRequest: (l) => lines.push(l) });
  try {
    const auth = { authorization: `Bearer ${sb.tokens.alice}`, 'content-type': 'application/json' };
    const projects = (await (await fetch(`${sb.url}/v0/projects?limit=1`, { headers: auth })).json()) as { projects: { id: string }[] };
    await fetch(`${sb.url}/v0/nowhere`, { headers: auth }).then((r) => r.arrayBuffer());
    await fetch(`${sb.url}/v0/orders`, { method: 'POST', headers: auth, body: JSON.stringify({ dry_run: true, order_items: [] }) }).then((r) =>
      r.arrayBuffer(),
    );
    assert.ok(projects.projects.length > 0);
    // 'close' comes after the client has the answer: wait for the three lines
    for (let i = 0; i < 50 && lines.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(lines.slice(0, 2), ['GET /v0/projects 200', 'GET /v0/nowhere 404']);
    assert.match(lines[2], /^POST \/v0\/orders 4\d\d$/);
    assert.ok(!lines.join('\n').includes(sb.tokens.alice));
  } finally {
    await sb.close();
  }
});
