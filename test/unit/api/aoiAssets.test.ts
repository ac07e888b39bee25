/**
 * The client's tolerant reading of the visualization PNG and AOI downloads
 * (docs/service-interface.md): each shape the document allows, and the POSTs sent once.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { EoClient } from '../../../src/api/client';
import { aoiDownloadPhase } from '../../../src/api/aoiDownloads';
import { ApiError } from '../../../src/api/errors';
import { startTestServer, type Handler, type TestServer } from './testServer';

function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]); // the client does not check CRCs
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(3, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(2 * 13))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('client: visualization PNG and AOI downloads', () => {
  let srv: TestServer;
  let client: EoClient;
  before(async () => {
    srv = await startTestServer((_q, res) => res.writeHead(500).end());
    client = new EoClient({ baseUrl: srv.url, token: 't', userAgent: 'test', retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
  });
  after(async () => {
    await client.close();
    await srv.close();
  });
  const answer = (h: Handler) => srv.setHandler(h);
  const json =
    (status: number, body: unknown): Handler =>
    (_q, res) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it('PNG: the picture and its size; the date sent as YYYY_MM_DD', async () => {
    answer((_q, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(tinyPng()));
    const png = await client.visualizationPng.render('a1', 'v1', { index_id: 'ix', date: '2024-05-06', mode: 'theoretical' });
    assert.deepEqual([png.width, png.height], [3, 2]);
    assert.ok(png.bytes.equals(tinyPng()));
    const last = srv.requests.at(-1);
    assert.equal(last?.url, '/v0/aois/a1/visualizations/v1/png');
    assert.deepEqual(JSON.parse(last?.body ?? ''), { index_id: 'ix', date: '2024_05_06', visualization_mode: 'theoretical' });
    assert.equal(last?.headers.accept, 'image/png');
  });

  it('PNG: an error body labelled image/png (as the OpenAPI declares) is read as the JSON it is; the POST is not repeated', async () => {
    answer((_q, res) =>
      res
        .writeHead(404, { 'content-type': 'image/png' })
        .end(JSON.stringify({ error: { code: 'not_found', message: 'no image on 2024_05_06', details: 'date' } })),
    );
    const before = srv.count('POST', '/v0/aois/a1/visualizations/v1/png');
    await assert.rejects(
      client.visualizationPng.render('a1', 'v1', { index_id: 'ix', date: '2024-05-06', mode: 'dynamic' }),
      (e: unknown) => e instanceof ApiError && e.status === 404 && /no image on 2024_05_06/.test(e.userMessage),
    );
    answer((_q, res) => res.writeHead(503).end());
    await assert.rejects(
      client.visualizationPng.render('a1', 'v1', { index_id: 'ix', date: '2024-05-06', mode: 'dynamic' }),
      (e: unknown) => e instanceof ApiError && e.status === 503,
    );
    assert.equal(srv.count('POST', '/v0/aois/a1/visualizations/v1/png') - before, 2, 'a POST was sent again');
  });

  it('PNG: a 200 that is not a PNG is a protocol error', async () => {
    answer(json(200, { url: 'https://example.org/x.png' }));
    await assert.rejects(
      client.visualizationPng.render('a1', 'v1', { index_id: 'ix', date: '2024-05-06', mode: 'dynamic' }),
      (e: unknown) => e instanceof ApiError && e.kind === 'protocol' && /PNG/.test(e.message),
    );
  });

  it('downloads: `download_id` (the OpenAPI) and `id` (as catalog downloads) are both read; the POST is sent once', async () => {
    answer(json(201, { download_id: 'd1', status: 'CREATED' }));
    assert.deepEqual(await client.aoiDownloads.create('a1', { asset_ids: ['x'] }), { download_id: 'd1', status: 'CREATED' });
    answer(json(200, { id: 'd2', status: 'success', signed_url: 'https://files.example.org/d2' }));
    assert.deepEqual(await client.aoiDownloads.get('a1', 'd2'), { download_id: 'd2', status: 'success', signed_url: 'https://files.example.org/d2' });
    answer(json(200, { status: 'SUCCESS' }));
    await assert.rejects(client.aoiDownloads.get('a1', 'd3'), (e: unknown) => e instanceof ApiError && e.kind === 'protocol');
    const before = srv.count('POST', '/v0/aois/a1/downloads');
    answer((_q, res) => res.writeHead(502).end());
    await assert.rejects(client.aoiDownloads.create('a1', { asset_ids: ['x'] }));
    assert.equal(srv.count('POST', '/v0/aois/a1/downloads') - before, 1, 'the POST was retried');
  });

  it('downloads: statuses in either case; followed until ready or failed', async () => {
    assert.equal(aoiDownloadPhase('SUCCESS'), 'ready');
    assert.equal(aoiDownloadPhase('success'), 'ready');
    assert.equal(aoiDownloadPhase('FAILED'), 'failed');
    assert.equal(aoiDownloadPhase('IN_PROGRESS'), 'pending');
    assert.equal(aoiDownloadPhase('in_progress'), 'pending');
    assert.equal(aoiDownloadPhase('QUEUED'), 'pending');
    let n = 0;
    answer((_q, res) => {
      n++;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(n < 3 ? { download_id: 'd', status: 'IN_PROGRESS' } : { download_id: 'd', status: 'SUCCESS', signed_url: 'https://f.example.org/d' }),
        );
    });
    const seen: string[] = [];
    const done = await client.aoiDownloads.waitUntilDone('a1', 'd', { initialDelayMs: 1, maxDelayMs: 5, onProgress: (d) => seen.push(d.status) });
    assert.equal(done.signed_url, 'https://f.example.org/d');
    assert.deepEqual(seen, ['IN_PROGRESS', 'IN_PROGRESS', 'SUCCESS']);
  });
});
