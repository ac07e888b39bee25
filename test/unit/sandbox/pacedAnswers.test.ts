/**
 * Large answers that the sandbox computes let the event loop turn while they are computed (the
 * sandbox runs inside the extension host for Try the Sandbox, where a request that holds the
 * loop freezes the editor): the route handler is called directly, and a chain of setImmediate
 * callbacks counts the loop's turns until its answer is ready.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxRoutes } from '../../../src/sandbox';
import { App } from '../../../src/sandbox/app';
import { Clock } from '../../../src/sandbox/clock';
import type { Req, Res } from '../../../src/sandbox/router';
import { seedState } from '../../../src/sandbox/world/seed';
import { buildWorld } from '../../../src/sandbox/world/world';

const world = buildWorld(11, 1);
const start = Date.UTC(2026, 0, 1);
const app = new App(world, seedState(world, start), new Clock(start, 1));
app.base = 'http://127.0.0.1:1';

function route(method: string, path: string): (r: Req) => Res | Promise<Res> {
  const r = sandboxRoutes().find((x) => x.method === method && x.path === path);
  assert.ok(r, `${method} ${path}`);
  return r.handler;
}

/** Calls the handler and counts how many times the event loop turned before its answer. */
async function turnsWhile(answer: () => Res | Promise<Res>): Promise<{ res: Res; turns: number }> {
  let turns = 0;
  let on = true;
  const spin = (): void => {
    turns++;
    if (on) setImmediate(spin);
  };
  setImmediate(spin);
  try {
    const res = await answer();
    return { res, turns };
  } finally {
    on = false;
  }
}

const req = (over: Partial<Req>): Req => ({
  method: 'GET',
  path: '/',
  query: new URLSearchParams(),
  headers: {},
  params: {},
  body: undefined,
  user: world.users[0],
  app,
  now: start,
  ...over,
});

describe('a page of 1,000 archive items', () => {
  it('is built while the event loop keeps turning, and is the GeoJSON of the whole page', async () => {
    const { res, turns } = await turnsWhile(() => route('POST', '/v0/archives/search')(req({ method: 'POST', body: { limit: 1000 } })));
    assert.equal(res.status, 200);
    assert.ok(turns >= 1, `the loop turned ${turns} times while 1,000 items were built`);
    const page = JSON.parse(String(res.raw ?? JSON.stringify(res.json))) as {
      type: string;
      features: { id: string; assets: Record<string, unknown> }[];
      links: { rel: string; body?: { offset: number } }[];
      numberReturned: number;
      context: { returned: number; limit: number };
    };
    assert.equal(page.type, 'FeatureCollection');
    assert.equal(page.features.length, 1000);
    assert.equal(new Set(page.features.map((f) => f.id)).size, 1000);
    assert.ok(page.features.every((f) => f.assets.data && f.assets.visual));
    assert.equal(page.numberReturned, 1000);
    assert.deepEqual(page.context, { returned: 1000, limit: 1000 });
    assert.equal(page.links[0]?.rel, 'next');
    assert.equal(page.links[0]?.body?.offset, 1000);
  });

  it('is built the same way through the collection items route (all 500 items of a collection)', async () => {
    const cid = 'sentinel-2-l2a';
    const { res, turns } = await turnsWhile(() =>
      route('GET', '/v0/archives/collections/:cid/items')(req({ params: { cid }, query: new URLSearchParams({ limit: '1000' }) })),
    );
    assert.equal(res.status, 200);
    assert.ok(turns >= 1, `the loop turned ${turns} times while 500 items were built`);
    const page = JSON.parse(String(res.raw ?? JSON.stringify(res.json))) as { features: { collection: string }[] };
    assert.equal(page.features.length, 500);
    assert.ok(page.features.every((f) => f.collection === cid));
  });
});
