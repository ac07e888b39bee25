// Bodies built to hold the sandbox's event loop (it can run inside the extension host): deep
// nesting is refused before JSON.parse, geometries past the vertex budget before any geometry
// work, and a ring whose edges all overlap before its quadratic check; each with a 400 that
// says why. Large but ordinary geometries still go through.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { assetFile } from '../../../src/sandbox/imagery/assetFiles';
import { MAX_BODY_NESTING } from '../../../src/sandbox/server';
import { T } from '../../../src/sandbox/transitions';
import { MAX_REQUEST_VERTICES } from '../../../src/sandbox/validate';
import { largePolygonBodies } from '../../fixtures/hostileLists';
import { caller } from './helpers';
import { cpuClock } from './loopMonitor';

/** A closed ring of `n` vertices on a circle. */
function circle(n: number, lon: number, lat: number, r: number): number[][] {
  const ring = Array.from({ length: n - 1 }, (_, i) => [lon + r * Math.cos((2 * Math.PI * i) / (n - 1)), lat + r * Math.sin((2 * Math.PI * i) / (n - 1))]);
  return [...ring, ring[0]];
}

/** A simple ring (no crossing) whose edges all span the same longitudes: a comb of teeth. */
function comb(teeth: number): number[][] {
  const ring: number[][] = [];
  for (let i = 0; i < teeth; i++) {
    const y = 45 + i * 0.002;
    ring.push([10, y], [11, y], [11, y + 0.001], [10.001, y + 0.001]);
  }
  ring.push([9.9, 45 + teeth * 0.002], [9.9, 45]);
  return [...ring, ring[0]];
}

let sb: SandboxHandle;
let call: ReturnType<typeof caller>;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 7 });
  call = caller(sb);
  const sats = (await call('GET', '/v0/satellites')).body as { satellites: { id: string; collections: { provider: string }[] }[] };
  provider = sats.satellites.find((x) => x.id === 'sentinel-2')!.collections[0].provider;
  itemId = ((await call('POST', '/v0/archives/search', { collections: ['sentinel-2-l2a'], limit: 1 })).body as { features: { id: string }[] }).features[0].id;
});
after(() => sb.close());

let provider = '';
let itemId = '';
function aoiBody(geometry: unknown): Record<string, unknown> {
  const alice = sb.users.alice.id;
  const project = sb.state.projects.find((p) => p.owner === alice)!;
  return {
    name: `big ${Math.random()}`,
    description: '',
    project_id: project.id,
    satellite_id: 'sentinel-2',
    provider,
    item_ids: [itemId],
    geometry,
  };
}

describe('hostile request bodies', () => {
  it('a body nested 6,500 levels deep is a 400 naming the limit, not a 500', async () => {
    for (const depth of [MAX_BODY_NESTING + 1, 6500, 100_000]) {
      const r = await call('POST', '/v0/archives/search', `{"limit":1,"extra":${'['.repeat(depth)}1${']'.repeat(depth)}}`);
      assert.equal(r.status, 400, `${depth} levels: ${r.text.slice(0, 200)}`);
      assert.match(r.text, new RegExp(`more than ${MAX_BODY_NESTING} levels deep`));
    }
    const ok = await call('POST', '/v0/archives/search', `{"limit":1,"extra":${'['.repeat(MAX_BODY_NESTING - 2)}1${']'.repeat(MAX_BODY_NESTING - 2)}}`);
    assert.equal(ok.status, 200, ok.text.slice(0, 200));
  });

  it('geometries past the vertex budget are a 400 before any geometry is read', async () => {
    const multi = { type: 'MultiPolygon', coordinates: Array.from({ length: 20 }, (_, i) => [circle(1999, -170 + i * 3, 10, 1)]) };
    const r = await call('POST', '/v0/aois', aoiBody(multi));
    assert.equal(r.status, 400, r.text.slice(0, 200));
    assert.match(r.text, new RegExp(`more than ${MAX_REQUEST_VERTICES.toLocaleString('en')} vertices`));
    assert.equal((r.body as { error: { details: string } }).error.details, 'geometry');
    const search = await call('POST', '/v0/search', {
      start_date: '2024-01-01',
      end_date: '2025-01-01',
      satellites: [{ satellite_id: 'sentinel-2', collection_id: 'sentinel-2-l2a' }],
      geometry: { type: 'MultiPolygon', coordinates: Array.from({ length: 10 }, (_, i) => [circle(999, -170 + i * 3, 10, 1)]) },
    });
    assert.equal(search.status, 400, search.text.slice(0, 200));
    assert.match(search.text, /9990 vertices; a search geometry may have at most 2000/);
  });

  it('a large ordinary AOI is checked and created; a ring whose edges all overlap is refused as too intricate', async () => {
    const big = await call('POST', '/v0/aois', aoiBody({ type: 'Polygon', coordinates: [circle(9999, 10, 45, 0.05)] }));
    assert.equal(big.status, 201, big.text.slice(0, 300));
    const bowtie = circle(9999, 10, 45, 0.05);
    [bowtie[10], bowtie[5000]] = [bowtie[5000], bowtie[10]];
    const crossed = await call('POST', '/v0/aois', aoiBody({ type: 'Polygon', coordinates: [bowtie] }));
    assert.equal(crossed.status, 400);
    assert.match(crossed.text, /ring intersects itself/);
    const intricate = await call('POST', '/v0/aois', aoiBody({ type: 'Polygon', coordinates: [comb(2000)] }));
    assert.equal(intricate.status, 400, intricate.text.slice(0, 300));
    assert.match(intricate.text, /too intricate to check.*simplify it/);
  });

  it('a 3.35 MB polygon is read, checked and answered with the event loop turning between the steps', async () => {
    const { geometry: _, ...fields } = aoiBody(undefined);
    const bodies = largePolygonBodies(fields);
    const cpu = cpuClock();
    for (const [text, status] of [
      [bodies.created, 201],
      [bodies.refused, 400],
    ] as const) {
      assert.ok(text.length > 3.2e6, `${text.length} bytes`);
      // the gaps between turns of the loop from the request's start to its answer's headers, in
      // the main thread's own CPU time: on a loaded machine the wall clock also counts the time
      // the scheduler gave other processes, which no pacing of ours can shorten
      const gaps: number[] = [];
      let last = cpu.now();
      let on = true;
      const spin = (): void => {
        const now = cpu.now();
        gaps.push(now - last);
        last = now;
        if (on) setImmediate(spin);
      };
      setImmediate(spin);
      const res = await fetch(`${sb.url}/v0/aois`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.tokens.alice}`, 'content-type': 'application/json' },
        body: text,
      });
      on = false;
      await res.text();
      assert.equal(res.status, status);
      const longest = Math.max(...gaps);
      const busy = gaps.filter((g) => g > 2).reduce((a, b) => a + b, 0);
      // Held in one piece the request is most of the busy time; paced, its longest step is a
      // part of it. The figure against its 100 ms goal: npm run bench -- hostile.
      assert.ok(longest < 0.6 * busy, `longest stall ${longest.toFixed(0)} ms of ${busy.toFixed(0)} ms busy, ${cpu.source} CPU time (status ${status})`);
    }
  });

  it('several assets download as one ZIP streamed as it is read: an archive of the same files a single download serves', async () => {
    const alice = sb.users.alice.id;
    // The AOI with the smallest mosaics, to keep the test quick.
    const mosaicsOf = (aoiId: string) => sb.state.assets.filter((x) => x.aoi_id === aoiId && !x.visualization_id);
    const aoi = sb.state.aois
      .filter((a) => a.user_id === alice && mosaicsOf(a.aoi_id).length >= 2)
      .sort((a, b) => assetFile(a, mosaicsOf(a.aoi_id)[0]).layout.size - assetFile(b, mosaicsOf(b.aoi_id)[0]).layout.size)[0];
    const assets = mosaicsOf(aoi.aoi_id).slice(0, 2);
    const signed = async (ids: string[]): Promise<string> => {
      const d = await call('POST', `/v0/aois/${aoi.aoi_id}/downloads`, { asset_ids: ids });
      assert.equal(d.status, 201, d.text);
      sb.clock.advance(T.downloadDone + 1000);
      return (await call('GET', `/v0/aois/${aoi.aoi_id}/downloads/${(d.body as { download_id: string }).download_id}`)).body.signed_url as string;
    };
    const zipRes = await fetch(await signed(assets.map((a) => a.id)));
    assert.equal(zipRes.status, 200);
    const zip = Buffer.from(await zipRes.arrayBuffer());
    assert.equal(Number(zipRes.headers.get('content-length')), zip.length, 'the announced length is exact');
    const single = Buffer.from(await (await fetch(await signed([assets[0].id]))).arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'eo-zip-'));
    try {
      writeFileSync(join(dir, 'a.zip'), zip);
      // An independent reader: Python's zipfile checks every CRC and size.
      const out = execFileSync(
        '/usr/bin/python3',
        [
          '-c',
          'import sys,zipfile,hashlib;z=zipfile.ZipFile(sys.argv[1]);assert z.testzip() is None;[print(i.file_size,hashlib.sha256(z.read(i)).hexdigest()) for i in z.infolist()]',
          join(dir, 'a.zip'),
        ],
        { encoding: 'utf8' },
      );
      const lines = out.trim().split('\n');
      assert.equal(lines.length, 2);
      const { createHash } = await import('node:crypto');
      assert.equal(lines[0], `${single.length} ${createHash('sha256').update(single).digest('hex')}`, 'the first entry is the asset a single download serves');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
