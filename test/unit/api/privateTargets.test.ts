/**
 * Service-provided URLs on this computer or the local network need the person's confirmation,
 * once per host: the classification, the guard (one question per host, shared by concurrent
 * reads, names resolved), and the two paths that read such URLs in the extension host (an
 * imagery range read on another host, a download and each of its redirects).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiError, EoClient } from '../../../src/api';
import { PrivateTargetGuard, PrivateTargetRefused, addressKind, hostKind, type PrivateKind } from '../../../src/api/privateTargets';
import { downloadToFolder } from '../../../src/commands/catalog/downloadFile';
import { startTestServer, type TestServer } from './testServer';

describe('private targets', () => {
  it('classifies loopback, private and link-local addresses, v4 and v6, and leaves public ones alone', () => {
    const cases: [string, PrivateKind | undefined][] = [
      ['127.0.0.1', 'loopback'],
      ['127.8.9.10', 'loopback'],
      ['0.0.0.0', 'loopback'],
      ['[::1]', 'loopback'],
      ['localhost', 'loopback'],
      ['api.localhost', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['[fd12::1]', 'private'],
      ['169.254.169.254', 'link-local'],
      ['[fe80::1]', 'link-local'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['[::ffff:a9fe:a9fe]', 'link-local'],
      ['8.8.8.8', undefined],
      ['172.32.0.1', undefined],
      ['[2001:db8::1]', undefined],
      ['example.com', undefined],
    ];
    for (const [host, want] of cases) assert.equal(hostKind(host), want, host);
    assert.equal(addressKind('192.168.0.10'), 'private');
  });

  it('asks once per host, shares the question between concurrent reads, resolves names, and remembers a refusal', async () => {
    const asked: string[] = [];
    const answers: Record<string, boolean> = { '10.0.0.5:8080': true, 'metadata.internal': false };
    const guard = new PrivateTargetGuard(
      async (host) => {
        asked.push(host);
        await new Promise((r) => setTimeout(r, 10));
        return answers[host] ?? false;
      },
      async (name) => (name === 'metadata.internal' ? ['169.254.169.254'] : ['93.184.216.34']),
    );
    await Promise.all([guard.check(new URL('http://10.0.0.5:8080/a.tif')), guard.check(new URL('http://10.0.0.5:8080/b.tif'))]);
    await guard.check(new URL('http://10.0.0.5:8080/c.tif'));
    await guard.check(new URL('https://public.example/x.tif'));
    await assert.rejects(guard.check(new URL('http://metadata.internal/latest')), (e: unknown) => e instanceof PrivateTargetRefused && e.kind === 'link-local');
    await assert.rejects(guard.check(new URL('http://metadata.internal/other')), PrivateTargetRefused);
    assert.deepEqual(asked, ['10.0.0.5:8080', 'metadata.internal'], 'one question per host; none for a public one');
  });

  describe('the reads of the extension host', () => {
    let srv: TestServer;
    let dir: string;
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-private-'));
      srv = await startTestServer((req, res) => {
        if (req.url === '/hop') {
          res.writeHead(302, { location: `${srv.url}/file.bin` }).end();
          return;
        }
        res.writeHead(req.headers.range ? 206 : 200, { 'content-type': 'application/octet-stream', 'content-length': 4 }).end(Buffer.from([1, 2, 3, 4]));
      });
    });
    after(async () => {
      await srv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('an imagery read on another host is checked first, and a refusal is a sentence, not a request', async () => {
      const checked: string[] = [];
      const c = new EoClient({
        baseUrl: 'https://eo.example.test',
        token: 'tok-123456789',
        userAgent: 't',
        timeoutMs: 2000,
        checkTarget: async (u) => {
          checked.push(u.host);
          throw new PrivateTargetRefused(u.host, 'loopback');
        },
      });
      try {
        const before = srv.requests.length;
        const e = await c.readRange(`${srv.url}/scene.tif`, 0, 4, { maxWholeFile: 4 }).catch((err: unknown) => err);
        assert.ok(e instanceof ApiError, String(e));
        assert.match(e.userMessage ?? e.message, /on this computer; reading from it was not allowed/);
        assert.equal(srv.requests.length, before, 'nothing was sent');
        assert.deepEqual(checked, [new URL(srv.url).host]);
      } finally {
        await c.close();
      }
    });

    it('a download checks the link and every redirect before fetching it', async () => {
      const checked: string[] = [];
      const file = await downloadToFolder(`${srv.url.replace('127.0.0.1', 'localhost')}/hop`, dir, {
        fallbackName: 'x.bin',
        checkTarget: async (u) => void checked.push(u.host),
      });
      assert.equal(path.basename(file), 'file.bin');
      assert.deepEqual(checked, [new URL(srv.url.replace('127.0.0.1', 'localhost')).host, new URL(srv.url).host]);
      await assert.rejects(
        downloadToFolder(`${srv.url}/hop`, dir, {
          fallbackName: 'x.bin',
          checkTarget: async (u) => {
            throw new PrivateTargetRefused(u.host, 'private');
          },
        }),
        /Not downloaded: .* on your local network; reading from it was not allowed/,
      );
    });
  });
});
