// The STAC panel's thumbnail: no redirect to another host, and a body read only up to the limit.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fetchThumbnail } from '../../../src/panels/thumbnail';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

describe('STAC thumbnail fetch', () => {
  let asset: { server: http.Server; url: string };
  let other: { server: http.Server; url: string };
  let otherHits = 0;
  let streamed = 0;
  before(async () => {
    other = await listen((_req, res) => {
      otherHits++;
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    asset = await listen((req, res) => {
      if (req.url === '/thumb.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
      } else if (req.url === '/same') {
        res.writeHead(302, { location: '/thumb.png' });
        res.end();
      } else if (req.url === '/away') {
        res.writeHead(302, { location: `${other.url}/thumb.png` });
        res.end();
      } else if (req.url === '/huge') {
        // No content-length, 64 MB unless the client stops reading.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(256 * 1024);
        const pump = (): void => {
          while (streamed < 64 * 1024 * 1024 && !res.destroyed) {
            streamed += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end();
        };
        pump();
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  after(() => {
    for (const s of [asset.server, other.server]) {
      s.closeAllConnections();
      s.close();
    }
  });

  it('reads a thumbnail, following a redirect on the same host', async () => {
    const t = await fetchThumbnail(`${asset.url}/same`);
    assert.equal(t.type, 'image/png');
    assert.deepEqual(t.bytes, PNG);
  });

  it('does not follow a redirect to another host', async () => {
    await assert.rejects(fetchThumbnail(`${asset.url}/away`), /another host/);
    assert.equal(otherHits, 0);
  });

  it('stops reading at the size limit', async () => {
    await assert.rejects(fetchThumbnail(`${asset.url}/huge`), /larger than 2 MB/);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(streamed < 32 * 1024 * 1024, `the server got to stream ${streamed} bytes`);
  });
});
