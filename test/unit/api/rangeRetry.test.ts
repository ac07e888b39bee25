// A byte-range read (imagery, Save View) that meets a reset is asked again once: a server
// closes a kept-alive connection just as the client reuses it, and a GET of a range changes
// nothing. A second reset is the caller's to word.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { EoClient } from '../../../src/api/client';

const body = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
let server: Server;
let origin: string;
/** How many of the next requests have their connection reset before any answer. */
let resets = 0;
let requests = 0;

before(async () => {
  server = createServer((req, res) => {
    requests++;
    if (resets > 0) {
      resets--;
      req.socket.destroy();
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const a = Number(m?.[1] ?? 0);
    const b = Number(m?.[2] ?? body.length - 1);
    res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${body.length}`, 'content-length': b - a + 1 }).end(body.subarray(a, b + 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => server.close());

test('a range read reset once is asked again and returns the bytes; reset twice, it fails with the reset', async () => {
  const client = new EoClient({ baseUrl: origin, userAgent: 'eo-imagery-test' });
  try {
    resets = 1;
    requests = 0;
    const got = await client.readRange(`${origin}/scene.tif`, 100, 200, { maxWholeFile: 1 << 20 });
    assert.equal(got.status, 206);
    assert.ok(got.body.equals(body.subarray(100, 300)));
    assert.equal(requests, 2);
    resets = 2;
    requests = 0;
    await assert.rejects(client.readRange(`${origin}/scene.tif`, 0, 10, { maxWholeFile: 1 << 20 }), (e: Error & { kind?: string }) => e.kind === 'network');
    assert.equal(requests, 2, 'asked again once, not more');
  } finally {
    await client.close();
  }
});
