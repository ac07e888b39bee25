import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { downloadToFolder, fileNameFor } from '../../../src/commands/catalog/downloadFile';

// The servers here are on 127.0.0.1 and read on purpose: no private-host check (otherHosts: undefined).
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

const folders: string[] = [];

after(() => {
  server.closeAllConnections();
  server.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function tempFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-dl-'));
  folders.push(dir);
  return dir;
}

describe('download to a folder', () => {
  it('writes the whole file under its name and reports progress', async () => {
    const dir = tempFolder();
    const seen: number[] = [];
    const file = await downloadToFolder(`${base}/ok/scene.zip`, dir, {
      otherHosts: undefined,
      fallbackName: 'x.zip',
      onProgress: (p) => seen.push(p.received),
    });
    assert.equal(file, path.join(dir, 'scene.zip'));
    assert.deepEqual(fs.readFileSync(file), payload);
    assert.equal(seen.at(-1), payload.length);
    assert.deepEqual(fs.readdirSync(dir), ['scene.zip']);
    const second = await downloadToFolder(`${base}/ok/scene.zip`, dir, { otherHosts: undefined, fallbackName: 'x.zip' });
    assert.equal(path.basename(second), 'scene (1).zip');
  });

  it('keeps a server-sent name inside the folder', async () => {
    const dir = tempFolder();
    const file = await downloadToFolder(`${base}/named`, dir, { otherHosts: undefined, fallbackName: 'x' });
    assert.equal(file, path.join(dir, 'evil name.tif'));
  });

  it('leaves no file at all when the connection drops mid-body', async () => {
    const dir = tempFolder();
    await assert.rejects(
      downloadToFolder(`${base}/cut`, dir, { otherHosts: undefined, fallbackName: 'cut.zip', retries: 1, backoffMs: 1 }),
      /download (failed|stopped)/,
    );
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('leaves no file when cancelled', async () => {
    const dir = tempFolder();
    const ac = new AbortController();
    const p = downloadToFolder(`${base}/slow`, dir, { otherHosts: undefined, fallbackName: 'slow.zip', signal: ac.signal, onProgress: () => ac.abort() });
    await assert.rejects(p, /cancelled/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('explains an expired link', async () => {
    await assert.rejects(downloadToFolder(`${base}/gone`, tempFolder(), { otherHosts: undefined, fallbackName: 'x' }), /403.*expired/);
  });

  it('picks names from Content-Disposition, the URL, or the fallback', () => {
    const u = new URL('https://s3.example/b/k/img%201.tif?sig=1');
    assert.equal(fileNameFor(`attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.zip`, u, 'f'), 'résumé.zip');
    assert.equal(fileNameFor(undefined, u, 'f'), 'img 1.tif');
    assert.equal(fileNameFor(undefined, new URL('https://h/'), 'dl-1.zip'), 'dl-1.zip');
  });
});

describe('download links from a hostile or unusual server', () => {
  let hostile: http.Server;
  let hbase: string;
  const seenAuth: (string | undefined)[] = [];
  before(async () => {
    hostile = http.createServer((req, res) => {
      seenAuth.push(req.headers.authorization);
      const url = req.url ?? '';
      if (url === '/302') {
        res.writeHead(302, { location: '/ok/scene.zip', 'content-type': 'text/html' });
        res.end('<html><body>Moved</body></html>');
      } else if (url === '/ok/scene.zip') {
        res.writeHead(200, { 'content-length': String(payload.length) });
        res.end(payload);
      } else if (url === '/204') {
        res.writeHead(204);
        res.end();
      } else if (url.startsWith('/loop')) {
        const n = Number(url.slice(5) || '0');
        res.writeHead(307, { location: `/loop${n + 1}` });
        res.end();
      } else if (url === '/to-file') {
        res.writeHead(302, { location: 'file:///etc/passwd' });
        res.end();
      } else if (url === '/slow-named') {
        setTimeout(() => {
          res.writeHead(200, { 'content-disposition': 'attachment; filename="same.bin"', 'content-length': '3' });
          res.end(req.headers['x-which'] === 'b' ? 'bbb' : 'aaa');
        }, 50);
      } else if (url === '/bidi') {
        res.writeHead(200, { 'content-disposition': `attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe` });
        res.end('x');
      } else if (url === '/con') {
        res.writeHead(200, { 'content-disposition': 'attachment; filename="CON.tif"' });
        res.end('x');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
    hbase = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });
  after(() => {
    hostile.closeAllConnections();
    hostile.close();
  });

  it('follows a redirect to the file and saves the file, not the redirect page', async () => {
    const dir = tempFolder();
    const file = await downloadToFolder(`${hbase}/302`, dir, { otherHosts: undefined, fallbackName: 'x.zip' });
    assert.deepEqual(fs.readFileSync(file), payload);
    assert.deepEqual(fs.readdirSync(dir), ['scene.zip']);
    assert.ok(
      seenAuth.every((a) => a === undefined),
      'an Authorization header was sent',
    );
  });

  it('a 204 (or any non-200 success) is an error, and no empty file is left', async () => {
    const dir = tempFolder();
    await assert.rejects(downloadToFolder(`${hbase}/204`, dir, { otherHosts: undefined, fallbackName: 'x.zip' }), /answered 204 instead of the file/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('stops after 5 redirects, and never follows one off http(s)', async () => {
    const dir = tempFolder();
    await assert.rejects(downloadToFolder(`${hbase}/loop0`, dir, { otherHosts: undefined, fallbackName: 'x' }), /redirected more than 5 times/);
    await assert.rejects(downloadToFolder(`${hbase}/to-file`, dir, { otherHosts: undefined, fallbackName: 'x' }), /Refusing to download from a file: link/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('two downloads of the same name at once keep both files', async () => {
    const dir = tempFolder();
    const [a, b] = await Promise.all([
      downloadToFolder(`${hbase}/slow-named`, dir, { otherHosts: undefined, fallbackName: 'x' }),
      downloadToFolder(`${hbase}/slow-named`, dir, { otherHosts: undefined, fallbackName: 'x' }),
    ]);
    assert.notEqual(a, b);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['same (1).bin', 'same.bin']);
  });

  it('drops bidirectional controls and renames Windows device names', async () => {
    const dir = tempFolder();
    assert.equal(path.basename(await downloadToFolder(`${hbase}/bidi`, dir, { otherHosts: undefined, fallbackName: 'x' })), 'invoicefdp.exe');
    assert.equal(path.basename(await downloadToFolder(`${hbase}/con`, dir, { otherHosts: undefined, fallbackName: 'x' })), '_CON.tif');
    const u = new URL('https://h/x');
    for (const n of ['nul', 'NUL.txt', 'com1.zip', 'LPT9', 'aux.tar.gz']) assert.equal(fileNameFor(`attachment; filename="${n}"`, u, 'f'), `_${n}`);
    assert.equal(fileNameFor('attachment; filename="console.log"', u, 'f'), 'console.log');
    assert.equal(fileNameFor('attachment; filename="scene.tif. . "', u, 'f'), 'scene.tif');
    assert.equal(fileNameFor(`attachment; filename*=UTF-8''a%E2%81%A6b%E2%80%8Fc.zip`, u, 'f'), 'abc.zip');
  });
});
