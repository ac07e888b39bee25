import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { downloadToFolder, fileNameFor } from '../../../src/commands/catalog/downloadFile';

const payload = Buffer.alloc(256 * 1024, 7);
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/ok/scene.zip') {
      res.writeHead(200, { 'content-length': String(payload.length), 'content-type': 'application/zip' });
      res.end(payload);
    } else if (req.url === '/named') {
      res.writeHead(200, { 'content-disposition': 'attachment; filename="../../evil name.tif"' });
      res.end('abc');
    } else if (req.url === '/cut') {
      // Promise more than is sent, then drop the connection mid-body.
      res.writeHead(200, { 'content-length': String(payload.length) });
      res.write(payload.subarray(0, 1000), () => setTimeout(() => res.socket?.destroy(), 20));
    } else if (req.url === '/slow') {
      res.writeHead(200, { 'content-length': String(payload.length) });
      res.write(payload.subarray(0, 1000));
    } else {
      res.writeHead(403);
      res.end('expired');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

function tempFolder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'eo-dl-'));
}

describe('download to a folder', () => {
  it('writes the whole file under its name and reports progress', async () => {
    const dir = tempFolder();
    const seen: number[] = [];
    const file = await downloadToFolder(`${base}/ok/scene.zip`, dir, { fallbackName: 'x.zip', onProgress: (p) => seen.push(p.received) });
    assert.equal(file, path.join(dir, 'scene.zip'));
    assert.deepEqual(fs.readFileSync(file), payload);
    assert.equal(seen.at(-1), payload.length);
    assert.deepEqual(fs.readdirSync(dir), ['scene.zip']);
    const second = await downloadToFolder(`${base}/ok/scene.zip`, dir, { fallbackName: 'x.zip' });
    assert.equal(path.basename(second), 'scene (1).zip');
  });

  it('keeps a server-sent name inside the folder', async () => {
    const dir = tempFolder();
    const file = await downloadToFolder(`${base}/named`, dir, { fallbackName: 'x' });
    assert.equal(file, path.join(dir, 'evil name.tif'));
  });

  it('leaves no file at all when the connection drops mid-body', async () => {
    const dir = tempFolder();
    await assert.rejects(downloadToFolder(`${base}/cut`, dir, { fallbackName: 'cut.zip' }), /download (failed|stopped)/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('leaves no file when cancelled', async () => {
    const dir = tempFolder();
    const ac = new AbortController();
    const p = downloadToFolder(`${base}/slow`, dir, { fallbackName: 'slow.zip', signal: ac.signal, onProgress: () => ac.abort() });
    await assert.rejects(p, /cancelled/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('explains an expired link', async () => {
    await assert.rejects(downloadToFolder(`${base}/gone`, tempFolder(), { fallbackName: 'x' }), /403.*expired/);
  });

  it('picks names from Content-Disposition, the URL, or the fallback', () => {
    const u = new URL('https://s3.example/b/k/img%201.tif?sig=1');
    assert.equal(fileNameFor(`attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.zip`, u, 'f'), 'résumé.zip');
    assert.equal(fileNameFor(undefined, u, 'f'), 'img 1.tif');
    assert.equal(fileNameFor(undefined, new URL('https://h/'), 'dl-1.zip'), 'dl-1.zip');
  });
});
