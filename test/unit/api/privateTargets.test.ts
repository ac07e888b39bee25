/**
 * Service-provided URLs on this computer or the local network need the person's confirmation,
 * once per host: the classification, the guard (one question per host, shared by concurrent
 * reads, names resolved), the connections (each checked where it goes, so a rebinding name
 * cannot slip through), and the paths that read such URLs in the extension host (an imagery
 * range read on another host, an output file, a thumbnail, a download and each of its redirects).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Dispatcher } from 'undici';
import { ApiError, EoClient, type OtherHosts } from '../../../src/api';
import { guardedAgent } from '../../../src/api/guardedConnect';
import { OutputFileError } from '../../../src/api/outputFiles';
import { PrivateTargetGuard, PrivateTargetRefused, addressKind, hostKind, type PrivateKind } from '../../../src/api/privateTargets';
import { downloadToFolder } from '../../../src/commands/catalog/downloadFile';
import { fetchThumbnail } from '../../../src/panels/thumbnail';
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
      // IPv4-compatible and -translated forms reach the IPv4 address they carry
      ['[::7f00:1]', 'loopback'],
      ['[::127.0.0.1]', 'loopback'],
      ['[::a00:1]', 'private'],
      ['[::ffff:0:127.0.0.1]', 'loopback'],
      ['[0:0:0:0:0:ffff:7f00:1]', 'loopback'],
      // NAT64 of a private IPv4 address, and a network's own NAT64 prefix
      ['[64:ff9b::7f00:1]', 'loopback'],
      ['[64:ff9b::10.1.2.3]', 'private'],
      ['[64:ff9b::a9fe:a9fe]', 'link-local'],
      ['[64:ff9b:1::a00:1]', 'private'],
      // 6to4 of a private IPv4 address
      ['[2002:7f00:1::1]', 'loopback'],
      ['[2002:c0a8:101::]', 'private'],
      ['[2002:a9fe:a9fe::1]', 'link-local'],
      // site-local, and the benchmarking range
      ['[fec0::1]', 'private'],
      ['[feff::1]', 'private'],
      ['198.18.0.1', 'private'],
      ['198.19.255.255', 'private'],
      ['8.8.8.8', undefined],
      ['172.32.0.1', undefined],
      ['198.17.255.255', undefined],
      ['198.20.0.1', undefined],
      ['[2001:db8::1]', undefined],
      ['[64:ff9b::808:808]', undefined],
      ['[2002:808:808::1]', undefined],
      ['[::ffff:8.8.8.8]', undefined],
      ['[fe00::1]', undefined],
      ['example.com', undefined],
    ];
    for (const [host, want] of cases) assert.equal(hostKind(host), want, host);
    assert.equal(addressKind('192.168.0.10'), 'private');
    assert.equal(addressKind('fe80::1%eth0'), 'link-local', 'a zone index does not hide the address');
    assert.equal(addressKind('::ffff:7f00:1'), 'loopback');
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

  it('a connection is checked at the address it goes to, and the answer is per host and kind', async () => {
    const asked: string[] = [];
    const guard = new PrivateTargetGuard(
      async (host, kind) => {
        asked.push(`${host} ${kind}`);
        return kind === 'private';
      },
      async () => ['93.184.216.34'],
      (hostname) => hostname === 'eo.local',
    );
    await guard.check(new URL('https://files.example/a.tif'));
    await guard.checkConnection('files.example', 'files.example', ['10.0.0.7']);
    await assert.rejects(
      guard.checkConnection('files.example', 'files.example', ['127.0.0.1']),
      (e: unknown) => e instanceof PrivateTargetRefused && e.kind === 'loopback',
    );
    await guard.checkConnection('files.example', 'files.example', ['93.184.216.34']);
    await guard.checkConnection('eo.local:8080', 'eo.local', ['127.0.0.1']);
    await assert.rejects(guard.check(new URL('http://[::1]:9000/x')), PrivateTargetRefused);
    assert.deepEqual(asked, ['files.example private', 'files.example loopback', '[::1]:9000 loopback'], "the service's own host is never asked about");
  });

  describe('the reads of the extension host', () => {
    let srv: TestServer;
    let dir: string;
    const agents: Dispatcher[] = [];
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-private-'));
      srv = await startTestServer((req, res) => {
        if (req.url === '/hop') {
          res.writeHead(302, { location: `${srv.url}/file.bin` }).end();
          return;
        }
        if (req.url === '/thumb.png') {
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': 4 }).end(Buffer.from([1, 2, 3, 4]));
          return;
        }
        if (req.url === '/out.geojson') {
          res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify({ type: 'FeatureCollection', features: [] }));
          return;
        }
        res.writeHead(req.headers.range ? 206 : 200, { 'content-type': 'application/octet-stream', 'content-length': 4 }).end(Buffer.from([1, 2, 3, 4]));
      });
    });
    after(async () => {
      await Promise.all(agents.map((a) => a.close()));
      await srv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /**
     * What the extension wires up (Connection.otherHosts): a guard whose names resolve to
     * `answers` in turn (the last one repeating) and whose person answers `allow`, and the
     * dispatcher whose connections it checks.
     */
    function otherHostsOf(answers: string[][], allow: boolean): { otherHosts: OtherHosts; asked: string[] } {
      const asked: string[] = [];
      let lookups = 0;
      const guard = new PrivateTargetGuard(
        async (host, kind) => {
          asked.push(`${host} ${kind}`);
          return allow;
        },
        async () => answers[Math.min(lookups++, answers.length - 1)],
      );
      const agent = guardedAgent(guard, 2000);
      agents.push(agent);
      return { otherHosts: { check: (u) => guard.check(u), dispatcher: () => agent }, asked };
    }

    const clientWith = (otherHosts: OtherHosts): EoClient =>
      new EoClient({ baseUrl: 'https://eo.example.test', token: 'tok-123456789', userAgent: 't', timeoutMs: 2000, otherHosts });

    it('a rebinding name (public to the check, 127.0.0.1 to the connection) is asked about before connecting, and a refusal sends nothing', async () => {
      const port = new URL(srv.url).port;
      const host = `rebind.test:${port}`;
      const reads: [string, (o: OtherHosts) => Promise<unknown>, RegExp][] = [
        [
          'an imagery read',
          (o) => clientWith(o).readRange(`http://${host}/scene.tif`, 0, 4, { maxWholeFile: 4 }),
          /on this computer; reading from it was not allowed/,
        ],
        ['an output file', (o) => clientWith(o).outputGeoJson(`http://${host}/out.geojson`), /on this computer; reading from it was not allowed/],
        [
          'a download',
          (o) => downloadToFolder(`http://${host}/file.bin`, dir, { fallbackName: 'x.bin', otherHosts: o }),
          /^Not downloaded: .* on this computer/,
        ],
        ['a thumbnail', (o) => fetchThumbnail(`http://${host}/thumb.png`, { otherHosts: o }), /on this computer; reading from it was not allowed/],
      ];
      for (const [what, read, message] of reads) {
        const { otherHosts, asked } = otherHostsOf([['93.184.216.34'], ['127.0.0.1']], false);
        const before = srv.requests.length;
        const e = await read(otherHosts).catch((err: unknown) => err);
        assert.ok(e instanceof Error, `${what}: ${String(e)}`);
        assert.match(e instanceof ApiError ? (e.userMessage ?? e.message) : e.message, message, what);
        assert.ok(e instanceof ApiError || e instanceof OutputFileError || /Not downloaded|reading from it/.test(e.message), what);
        assert.deepEqual(asked, [`${host} loopback`], `${what}: asked about the address connected to`);
        assert.equal(srv.requests.length, before, `${what}: nothing reached 127.0.0.1`);
      }
    });

    it('allowed, the connection goes to the address that was checked, and the person is asked once', async () => {
      const { otherHosts, asked } = otherHostsOf([['127.0.0.1']], true);
      const c = clientWith(otherHosts);
      const host = `pinned.test:${new URL(srv.url).port}`;
      try {
        const before = srv.requests.length;
        // "pinned.test" resolves nowhere but through the guard: reaching the server proves the pin.
        const got = await c.readRange(`http://${host}/scene.tif`, 0, 4, { maxWholeFile: 4 });
        assert.equal(got.body.byteLength, 4);
        await c.readRange(`http://${host}/scene.tif`, 0, 4, { maxWholeFile: 4 });
        assert.equal(srv.requests.length, before + 2);
        assert.equal(srv.requests.at(-1)?.headers.host, host, 'the request still names the host');
        assert.deepEqual(asked, [`${host} loopback`]);
      } finally {
        await c.close();
      }
    });

    it('an imagery read on another host is checked first, and a refusal is a sentence, not a request', async () => {
      const checked: string[] = [];
      const c = clientWith({
        check: async (u) => {
          checked.push(u.host);
          throw new PrivateTargetRefused(u.host, 'loopback');
        },
        dispatcher: () => assert.fail('no connection is made'),
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
      const { otherHosts } = otherHostsOf([['127.0.0.1']], true);
      const file = await downloadToFolder(`${srv.url.replace('127.0.0.1', 'localhost')}/hop`, dir, {
        fallbackName: 'x.bin',
        otherHosts: { check: async (u) => void checked.push(u.host), dispatcher: otherHosts.dispatcher },
      });
      assert.equal(path.basename(file), 'file.bin');
      assert.deepEqual(checked, [new URL(srv.url.replace('127.0.0.1', 'localhost')).host, new URL(srv.url).host]);
      await assert.rejects(
        downloadToFolder(`${srv.url}/hop`, dir, {
          fallbackName: 'x.bin',
          otherHosts: {
            check: async (u) => {
              throw new PrivateTargetRefused(u.host, 'private');
            },
            dispatcher: otherHosts.dispatcher,
          },
        }),
        /Not downloaded: .* on your local network; reading from it was not allowed/,
      );
    });
  });
});
