/**
 * Copy as curl / Python of an imagery read: the logged request of a byte-range read, written
 * out and run against a server, asks for the same bytes (its Range header kept, its URL without
 * the log's range note) and writes them to a file. The token comes from $EO_API_TOKEN.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { EoClient, describeRequest, type RequestEvent } from '../../../src/api';
import { reproducible, toCurl, toPython } from '../../../src/commands/copyAs/requestText';
import { startTestServer, type TestServer } from '../api/testServer';

const run = promisify(execFile);
const TOKEN = 'tok-range-copy-123456';
const FILE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));

describe('Copy as curl / Python of an imagery range read', () => {
  let srv: TestServer;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-copy-range-'));
    srv = await startTestServer((req, res) => {
      const m = /bytes=(\d+)-(\d+)/.exec(String(req.headers.range ?? ''));
      if (req.headers.authorization !== `Bearer ${TOKEN}` && req.url.startsWith('/v0/')) {
        res.writeHead(401).end();
        return;
      }
      if (!m) {
        res.writeHead(200, { 'content-type': 'image/tiff', 'content-length': FILE.length }).end(FILE);
        return;
      }
      const [start, end] = [Number(m[1]), Number(m[2])];
      const part = FILE.subarray(start, end + 1);
      res.writeHead(206, { 'content-type': 'image/tiff', 'content-range': `bytes ${start}-${end}/${FILE.length}`, 'content-length': part.length }).end(part);
    });
  });
  after(async () => {
    await srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function logged(href: string): Promise<RequestEvent> {
    const events: RequestEvent[] = [];
    const c = new EoClient({ baseUrl: srv.url, token: TOKEN, userAgent: 'eo-test', timeoutMs: 5000, onRequest: (e) => events.push(e) });
    try {
      const r = await c.readRange(href, 1000, 24, { maxWholeFile: 4096 });
      assert.deepEqual(Buffer.from(r.body), FILE.subarray(1000, 1024));
    } finally {
      await c.close();
    }
    assert.equal(events.length, 1);
    return events[0];
  }

  it('the log line names the range; the copied curl command fetches the same bytes with the token from the environment', async () => {
    const e = await logged(`${srv.url}/v0/assets/scene%201.tif`);
    assert.match(describeRequest(e), /^GET \/v0\/assets\/scene%201\.tif \[bytes=1000-1023\] → 206/);
    const r = reproducible({ ...e, baseUrl: srv.url, authScheme: 'bearer' });
    assert.equal(r.url, `${srv.url}/v0/assets/scene%201.tif`);
    const text = toCurl(r);
    assert.ok(!text.includes(TOKEN), 'the token is never written');
    assert.match(text, /-H 'Range: bytes=1000-1023'/);
    await run('/bin/sh', ['-c', text], { cwd: dir, env: { ...process.env, EO_API_TOKEN: TOKEN } });
    assert.deepEqual(fs.readFileSync(path.join(dir, 'scene 1.tif.bytes-1000-1023.bin')), FILE.subarray(1000, 1024));
    assert.equal(srv.requests.at(-1)?.headers.range, 'bytes=1000-1023');
  });

  it('the copied Python writes the same bytes; a file on another host is copied by its own URL, without the token', async () => {
    const other = `${srv.url.replace('127.0.0.1', 'localhost')}/bucket/b04.tif`;
    const e = await logged(other);
    assert.equal(e.requestHeaders.authorization, undefined);
    const r = reproducible({ ...e, baseUrl: srv.url, authScheme: 'bearer' });
    assert.equal(r.url, other);
    assert.equal(r.auth, false);
    const text = toPython(r);
    assert.match(text, /"Range": "bytes=1000-1023"/);
    await run('/usr/bin/python3', ['-c', text], { cwd: dir, env: { ...process.env, EO_API_TOKEN: TOKEN } });
    assert.deepEqual(fs.readFileSync(path.join(dir, 'b04.tif.bytes-1000-1023.bin')), FILE.subarray(1000, 1024));
  });
});
