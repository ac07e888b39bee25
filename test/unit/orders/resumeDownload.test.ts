/**
 * Downloads resume from their last byte (issue 42): a 200 MB file served as an object store
 * serves it (src/sandbox/objects.ts), cut 20 times by the fault proxy at seeded offsets, ends
 * byte-identical, and each resume asks only for what is missing. The file is generated in
 * memory, never written to the repository; the saved copy is removed.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { DownloadError, downloadToFile, downloadToFolder } from '../../../src/commands/catalog/downloadFile';
import { partFileOf } from '../../../src/commands/catalog/partFile';
import { HttpError } from '../../../src/sandbox/errors';
import { asStoredObject, streamedEtag } from '../../../src/sandbox/objects';
import type { Res } from '../../../src/sandbox/router';
import { Rng } from '../../../src/sandbox/prng';
import { FaultProxy } from '../../support/faultProxy';

const SIZE = 200 * 1024 * 1024;
const big = Buffer.alloc(SIZE);
for (let i = 0; i < SIZE; i += 4) big.writeUInt32LE((i * 2654435761) >>> 0, i);
const small = Buffer.from('a small package\n'.repeat(1000));
let version = 1;
let validSig = '';
const expiring: { sig: string; range: string | undefined }[] = [];
let server: http.Server;
let proxy: FaultProxy;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-resume-'));

function chunked(b: Buffer): Res {
  return {
    status: 200,
    stream: {
      length: b.length,
      *chunks() {
        for (let i = 0; i < b.length; i += 1 << 16) yield b.subarray(i, i + (1 << 16));
      },
    },
  };
}

before(async () => {
  server = http.createServer((req, res) => {
    let out: Res;
    try {
      if (req.url === '/big.bin') out = asStoredObject(req.headers, chunked(big), { etag: streamedEtag('big', SIZE), modified: 0 });
      else if (req.url === '/changing.bin')
        out = asStoredObject(req.headers, chunked(big.subarray(0, 1 << 22)), { etag: streamedEtag(`v${version++}`, 1 << 22), modified: 0 });
      else if (req.url?.startsWith('/expiring.bin?sig=')) {
        // A signed link good for one request, as a short-lived presigned URL is for a slow download.
        const sig = req.url.slice('/expiring.bin?sig='.length);
        expiring.push({ sig, range: req.headers.range });
        if (sig !== validSig) throw new HttpError(403, 'the signed URL has expired', 'expired');
        validSig = '';
        out = asStoredObject(req.headers, chunked(big.subarray(0, 1 << 23)), { etag: streamedEtag('expiring', 1 << 23), modified: 0 });
      } else if (req.url === '/corrupt.zip')
        out = asStoredObject(req.headers, { status: 200, raw: small }, { etag: '"00000000000000000000000000000000"', modified: 0 });
      else if (req.url === '/checked.bin' || req.url === '/mangled.bin') {
        // Content-MD5 (RFC 1864) of the file as stored; the mangled one arrives otherwise
        const md5 = createHash('md5').update(small).digest('base64');
        out = { status: 200, raw: req.url === '/checked.bin' ? small : Buffer.concat([small.subarray(1), Buffer.from('!')]), headers: { 'content-md5': md5 } };
      } else out = { status: 404, raw: 'no' };
    } catch (e) {
      out = { status: (e as HttpError).status, raw: '', headers: (e as HttpError).headers };
    }
    res.writeHead(out.status, { ...out.headers, 'content-length': String(out.stream?.length ?? Buffer.byteLength(out.raw ?? '')) });
    if (out.stream) {
      const body = out.stream.chunks();
      pipeline(Readable.from(body), res, () => undefined);
    } else res.end(out.raw);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy = await FaultProxy.start({ upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seed: 42, announceSeed: false });
});

after(async () => {
  await proxy.close();
  server.closeAllConnections();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a download resumes from its last byte', () => {
  it('a 200 MB download cut 20 times ends byte-identical, each resume asking only for what is missing', async () => {
    const rng = new Rng(Number(process.env.EO_FAULT_SEED) || 4242);
    for (let i = 0; i < 20; i++) {
      const afterBytes = rng.range(1, 9 * 1024 * 1024);
      proxy.add({ path: '/big.bin', times: 1, toxic: i % 2 === 0 ? { kind: 'limitData', bytes: afterBytes } : { kind: 'resetPeer', afterBytes } });
    }
    const file = path.join(dir, 'big.bin');
    const restarts: string[] = [];
    await downloadToFile(`${proxy.url}/big.bin`, file, { otherHosts: undefined, retries: 3, backoffMs: 1, onRestart: (w) => restarts.push(w) });
    proxy.clear();
    const got = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    assert.equal(got, createHash('sha256').update(big).digest('hex'));
    assert.deepEqual(restarts, []);
    const asks = proxy.log.filter((r) => r.path === '/big.bin');
    assert.equal(asks.length, 21);
    assert.equal(asks[0].range, undefined);
    let start = 0;
    for (let i = 1; i < asks.length; i++) {
      const from = Number(/^bytes=(\d+)-$/.exec(asks[i].range ?? '')?.[1]);
      assert.equal(asks[i].ifRange, streamedEtag('big', SIZE));
      // Bytes that left the proxy but not the client's buffers before the cut are asked again,
      // never more than were sent, never what is already on disk.
      assert.ok(from >= start && from <= start + asks[i - 1].bodyBytes, `resume ${i}: ${from}`);
      start = from;
    }
    fs.rmSync(file);
  });

  it('a file that changed on the server (new ETag) starts over and says so', async () => {
    proxy.add({ path: '/changing.bin', times: 1, toxic: { kind: 'limitData', bytes: 1 << 21 } });
    const file = path.join(dir, 'changing.bin');
    const restarts: string[] = [];
    await downloadToFile(`${proxy.url}/changing.bin`, file, { otherHosts: undefined, retries: 3, backoffMs: 1, onRestart: (w) => restarts.push(w) });
    assert.ok(fs.readFileSync(file).equals(big.subarray(0, 1 << 22)));
    assert.equal(restarts.length, 1, JSON.stringify(proxy.log.filter((r) => r.path === '/changing.bin')));
    assert.match(restarts[0], /changed on the server/);
  });

  it('a signed link that expired mid-download is asked for again, and the download goes on from its last byte', async () => {
    validSig = 's1';
    proxy.add({ path: '/expiring.bin', times: 1, toxic: { kind: 'limitData', bytes: 3 << 20 } });
    const file = path.join(dir, 'expiring.bin');
    let renewals = 0;
    const renewLink = async (): Promise<string> => {
      validSig = `s${++renewals + 1}`;
      return `${proxy.url}/expiring.bin?sig=${validSig}`;
    };
    await downloadToFile(`${proxy.url}/expiring.bin?sig=s1`, file, { otherHosts: undefined, retries: 3, backoffMs: 1, renewLink });
    assert.ok(fs.readFileSync(file).equals(big.subarray(0, 1 << 23)));
    assert.equal(renewals, 1);
    // The whole file with the first link; the old link refused; the rest with the fresh one.
    assert.deepEqual(
      expiring.map((e) => e.sig),
      ['s1', 's1', 's2'],
    );
    const from = Number(/^bytes=(\d+)-$/.exec(expiring[2].range ?? '')?.[1]);
    assert.ok(from > 0 && from <= 3 << 20, `the fresh link asked from byte ${from}`);
    fs.rmSync(file);
  });

  it('a fresh link refused too ends the download with the reason', async () => {
    validSig = '';
    const file = path.join(dir, 'never.bin');
    let renewals = 0;
    const renewLink = async (): Promise<string> => `${proxy.url}/expiring.bin?sig=stale${++renewals}`;
    await assert.rejects(
      downloadToFile(`${proxy.url}/expiring.bin?sig=old`, file, { otherHosts: undefined, retries: 3, backoffMs: 1, renewLink }),
      /answered 403\. The link may have expired/,
    );
    assert.equal(renewals, 1);
  });

  it('a checksum mismatch is reported and the file kept under a name that says so', async () => {
    const file = path.join(dir, 'corrupt.zip');
    await assert.rejects(downloadToFile(`${proxy.url}/corrupt.zip`, file, { otherHosts: undefined, retries: 0 }), /failed verification: its MD5 checksum/);
    assert.equal(fs.existsSync(file), false);
    assert.ok(fs.existsSync(path.join(dir, 'corrupt (failed verification).zip')));
  });
  it('a Content-MD5 the file does not match is reported; one it matches is kept', async () => {
    const good = path.join(dir, 'checked.bin');
    await downloadToFile(`${proxy.url}/checked.bin`, good, { otherHosts: undefined, retries: 0 });
    assert.ok(fs.readFileSync(good).equals(small));
    const bad = path.join(dir, 'mangled.bin');
    await assert.rejects(
      downloadToFile(`${proxy.url}/mangled.bin`, bad, { otherHosts: undefined, retries: 0 }),
      /failed verification: its MD5 checksum is [0-9a-f]{32} where the server's is [0-9a-f]{32}/,
    );
    assert.equal(fs.existsSync(bad), false);
  });

  it('a download stopped (a reload, a window closed) goes on later from its last byte, in the same folder', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'later-'));
    proxy.add({ path: '/big.bin', times: 1, toxic: { kind: 'limitData', bytes: 5 << 20 } });
    const first = await downloadToFolder(`${proxy.url}/big.bin`, folder, { otherHosts: undefined, retries: 0, fallbackName: 'x.bin' }).then(
      () => assert.fail('the cut download finished'),
      (e: unknown) => e,
    );
    assert.ok(first instanceof DownloadError && first.kept > 0 && first.kept <= 5 << 20, String(first));
    const part = partFileOf(path.join(folder, 'big.bin'));
    assert.equal(fs.statSync(part).size, first.kept);
    // what the bytes are a prefix of is noted beside them, and nothing of the link
    assert.deepEqual(JSON.parse(fs.readFileSync(`${part}.json`, 'utf8')), {
      etag: streamedEtag('big', SIZE),
      lastModified: new Date(0).toUTCString(),
      size: SIZE,
    });
    const asked = proxy.log.length;
    const file = await downloadToFolder(`${proxy.url}/big.bin`, folder, { otherHosts: undefined, retries: 0, fallbackName: 'x.bin' });
    assert.equal(file, path.join(folder, 'big.bin'));
    assert.equal(createHash('sha256').update(fs.readFileSync(file)).digest('hex'), createHash('sha256').update(big).digest('hex'));
    const again = proxy.log.slice(asked).filter((r) => r.path === '/big.bin');
    // started again from the command (not Resume: the name is the server's), the first answer names
    // the file (its body is let go); the bytes come from where the part ended, once
    assert.deepEqual(
      again.map((r) => r.range),
      [undefined, `bytes=${first.kept}-`],
    );
    assert.deepEqual(fs.readdirSync(folder), ['big.bin']);
  });

  it('Resume asks only for the bytes the stopped try lacks: one ranged request, into the same file', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'resume-'));
    proxy.add({ path: '/big.bin', times: 1, toxic: { kind: 'limitData', bytes: 3 << 20 } });
    const stopped = await downloadToFolder(`${proxy.url}/big.bin`, folder, { otherHosts: undefined, retries: 0, fallbackName: 'x.bin' }).then(
      () => assert.fail('the cut download finished'),
      (e: unknown) => e,
    );
    assert.ok(stopped instanceof DownloadError && stopped.part && stopped.kept > 0, String(stopped));
    const asked = proxy.log.length;
    const file = await downloadToFolder(`${proxy.url}/big.bin`, folder, { otherHosts: undefined, retries: 0, fallbackName: 'x.bin', resume: stopped.part });
    assert.equal(file, path.join(folder, 'big.bin'));
    assert.equal(createHash('sha256').update(fs.readFileSync(file)).digest('hex'), createHash('sha256').update(big).digest('hex'));
    assert.deepEqual(
      proxy.log.slice(asked).map((r) => r.range),
      [`bytes=${stopped.kept}-`],
    );
    assert.deepEqual(fs.readdirSync(folder), ['big.bin']);
  });

  it('a file saved where the person chose goes on from its part at once, after a reload too', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'chosen-'));
    const target = path.join(folder, 'scene.bin');
    proxy.add({ path: '/big.bin', times: 1, toxic: { kind: 'limitData', bytes: 2 << 20 } });
    const stopped = await downloadToFile(`${proxy.url}/big.bin`, target, { otherHosts: undefined, retries: 0 }).then(
      () => assert.fail('the cut download finished'),
      (e: unknown) => e,
    );
    assert.ok(stopped instanceof DownloadError && stopped.kept > 0, String(stopped));
    const asked = proxy.log.length;
    await downloadToFile(`${proxy.url}/big.bin`, target, { otherHosts: undefined, retries: 0 });
    assert.ok(fs.readFileSync(target).equals(big));
    assert.deepEqual(
      proxy.log.slice(asked).map((r) => r.range),
      [`bytes=${stopped.kept}-`],
    );
  });

  it('Resume of a file that changed on the server since starts over and says so', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'resume-changed-'));
    const part = partFileOf(path.join(folder, 'changing.bin'));
    fs.writeFileSync(part, Buffer.alloc(1 << 20, 7));
    fs.writeFileSync(`${part}.json`, JSON.stringify({ etag: streamedEtag('v0', 1 << 22), size: 1 << 22 }));
    const said: string[] = [];
    const asked = proxy.log.length;
    const file = await downloadToFolder(`${proxy.url}/changing.bin`, folder, {
      otherHosts: undefined,
      retries: 0,
      fallbackName: 'x.bin',
      resume: part,
      onRestart: (why) => said.push(why),
    });
    assert.ok(fs.readFileSync(file).equals(big.subarray(0, 1 << 22)));
    // If-Range with the old ETag: the server answered the whole new file, which is what was kept
    assert.deepEqual(
      proxy.log.slice(asked).map((r) => r.range),
      ['bytes=1048576-'],
    );
    assert.equal(said.length, 1);
    assert.match(said[0], /starts over/);
    assert.deepEqual(fs.readdirSync(folder), ['changing.bin']);
  });

  it('a part whose file changed on the server since, or whose note is damaged, starts over', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'stale-'));
    const target = path.join(folder, 'changing.bin');
    const part = partFileOf(target);
    fs.writeFileSync(part, Buffer.alloc(1 << 20, 7));
    fs.writeFileSync(`${part}.json`, JSON.stringify({ etag: streamedEtag('v0', 1 << 22), size: 1 << 22 }));
    await downloadToFolder(`${proxy.url}/changing.bin`, folder, { otherHosts: undefined, retries: 0, fallbackName: 'x.bin' });
    assert.ok(fs.readFileSync(target).equals(big.subarray(0, 1 << 22)));
    fs.rmSync(target);
    fs.writeFileSync(part, Buffer.alloc(1 << 20, 7));
    fs.writeFileSync(`${part}.json`, '{"etag": ["not", "a string"], "size": "4194304"');
    await downloadToFolder(`${proxy.url}/changing.bin`, folder, { otherHosts: undefined, retries: 0, fallbackName: 'x.bin' });
    assert.ok(fs.readFileSync(target).equals(big.subarray(0, 1 << 22)));
    assert.deepEqual(fs.readdirSync(folder), ['changing.bin']);
  });
});
