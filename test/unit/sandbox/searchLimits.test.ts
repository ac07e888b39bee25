// Archive search with hostile bodies: huge geometries get a clear 400 instead of blocking the
// event loop (the sandbox can run inside the extension host), and nested unknown keys are not
// echoed into the next link (deep ones made the answer a 500; now the body is refused).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { caller } from './helpers';

/** A closed ring of `n` vertices on a circle (a star-free polygon), in degrees. */
function circle(n: number, lon: number, lat: number, r: number): number[][] {
  const ring = Array.from({ length: n - 1 }, (_, i) => {
    const a = (2 * Math.PI * i) / (n - 1);
    return [lon + r * Math.cos(a), lat + r * Math.sin(a)];
  });
  return [...ring, ring[0]];
}

let sb: SandboxHandle;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 7 });
});
after(() => sb.close());

describe('archive search limits', () => {
  it('a 10 × 9,999-vertex MultiPolygon is a 400 naming the limit (no exact test runs)', async () => {
    const coordinates = Array.from({ length: 10 }, (_, i) => [circle(9999, -10 + i * 2, 45, 0.9)]);
    const r = await caller(sb)('POST', '/v0/archives/search', { intersects: { type: 'MultiPolygon', coordinates }, limit: 10 });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(JSON.stringify(r.body), /intersects: the geometries of this request have more than 20,000 vertices/);
  });

  it('a 3 × 999-vertex MultiPolygon is a 400 naming the search limit, counted before the rings are read', async () => {
    const coordinates = Array.from({ length: 3 }, (_, i) => [circle(999, -10 + i * 2, 45, 0.9)]);
    const r = await caller(sb)('POST', '/v0/archives/search', { intersects: { type: 'MultiPolygon', coordinates }, limit: 10 });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(JSON.stringify(r.body), /2997 vertices; a search geometry may have at most 2000/);
  });

  it('a polygon at the vertex limit is searched exactly', async () => {
    const ring = circle(2000, 10, 45, 3);
    const r = await caller(sb)('POST', '/v0/archives/search', { intersects: { type: 'Polygon', coordinates: [ring] }, limit: 50 });
    assert.equal(r.status, 200, r.text.slice(0, 300));
  });

  it('a nested unknown key is not echoed into the next link', async () => {
    const deep = `${'{"x":'.repeat(40)}1${'}'.repeat(40)}`;
    const r = await caller(sb)('POST', '/v0/archives/search', `{"limit":1,"extra":${deep}}`);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    const next = (r.body as { links: { rel: string; body: Record<string, unknown> }[] }).links.find((l) => l.rel === 'next');
    assert.ok(next, 'no next link');
    assert.deepEqual(next.body, { limit: 1, offset: 1 });
  });
});
