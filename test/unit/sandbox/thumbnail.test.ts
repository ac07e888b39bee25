import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

describe('sandbox: archive item thumbnails', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());

  async function firstItem(): Promise<{ id: string; collection: string; assets: Record<string, { href: string; roles?: string[] }> }> {
    const res = await fetch(`${sb.url}/v0/archives/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sb.tokens.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 1 }),
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { features: Awaited<ReturnType<typeof firstItem>>[] }).features[0];
  }

  it('serves the thumbnail asset as a PNG without a token, the same bytes each time', async () => {
    const item = await firstItem();
    const thumb = Object.values(item.assets).find((a) => a.roles?.includes('thumbnail'));
    assert.ok(thumb, 'no thumbnail asset');
    const a = await fetch(thumb.href);
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await a.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(bytes.readUInt32BE(16), 128, 'width');
    assert.equal(bytes.readUInt32BE(20), 128, 'height');
    const b = Buffer.from(await (await fetch(thumb.href)).arrayBuffer());
    assert.ok(bytes.equals(b), 'the thumbnail is not deterministic');
  });

  it('answers 404 for an item that does not exist or sits in another collection', async () => {
    const item = await firstItem();
    assert.equal((await fetch(`${sb.url}/assets/${item.collection}/no-such-item/thumbnail.png`)).status, 404);
    const other = item.collection === 'landsat-c2-l2' ? 'sentinel-2-l2a' : 'landsat-c2-l2';
    assert.equal((await fetch(`${sb.url}/assets/${other}/${encodeURIComponent(item.id)}/thumbnail.png`)).status, 404);
  });
});
