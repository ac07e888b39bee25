/**
 * A secret a server echoes never reaches a person: the one function that turns a body into
 * text (`serverText`) redacts before it clips, also when the body itself was cut short in the
 * middle of a secret, and every imagery range read goes through it (the token of the service,
 * a pre-signed URL's signature).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, EoClient } from '../../../src/api';
import { decodeErrorBody, serverText } from '../../../src/api/errors';
import { startTestServer, type TestServer } from './testServer';

const TOKEN = 'tok_SECRET_9f8e7d6c5b4a39281706';

/** Every piece of the token of 4 characters or more that `text` still shows. */
function leaks(text: string, secret = TOKEN): string[] {
  const found: string[] = [];
  for (let i = 0; i + 4 <= secret.length; i++) if (text.includes(secret.slice(i, i + 4))) found.push(secret.slice(i, i + 4));
  return found;
}

describe('serverText', () => {
  const body = `{"error":{"message":"bad credentials: Bearer ${TOKEN} was refused; ${'x'.repeat(40)} token=${TOKEN}"}}`;

  it('redacts a secret cut off at any position of the body', () => {
    for (let cut = 0; cut <= body.length; cut++) {
      const text = serverText(body.slice(0, cut), [TOKEN], { cutShort: cut < body.length });
      assert.deepEqual(leaks(text), [], `cut at ${cut}: ${text}`);
    }
  });

  it('redacts before it clips, whatever the clip length', () => {
    for (let max = 1; max <= body.length; max++) {
      const text = serverText(body, [TOKEN], { max });
      assert.deepEqual(leaks(text), [], `clipped to ${max}: ${text}`);
      assert.ok(text.length <= max);
    }
  });

  it('redacts the escaped forms a JSON body holds, and leaves other text alone', () => {
    const key = 'line one\nline "two"';
    const echoed = JSON.stringify({ message: `your key ${JSON.stringify(key)}` });
    assert.ok(!serverText(echoed, [key]).includes('line one'));
    assert.equal(serverText('nothing secret here', [TOKEN], { cutShort: true, max: 300 }), 'nothing secret here');
  });

  it('is what decodes error bodies: a message clipped to 300 characters never ends in a piece of the token', () => {
    for (let pad = 260; pad < 300; pad++) {
      const d = decodeErrorBody(500, 'application/json', JSON.stringify({ message: `${'y'.repeat(pad)}${TOKEN}` }), [TOKEN]);
      assert.deepEqual(leaks(d.message), [], `padding ${pad}`);
    }
  });
});

describe('imagery range reads echo no secret', () => {
  let srv: TestServer;
  let c: EoClient;
  /** Where in the 16 KiB of error body that is read the token starts. */
  let tokenAt = 0;
  before(async () => {
    srv = await startTestServer((req, res) => {
      // an error page that echoes what it was sent, the token where the test puts it
      const body = `${'z'.repeat(tokenAt)}Authorization: ${req.headers.authorization ?? ''} url: ${req.url}${'z'.repeat(20000)}`;
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(body);
    });
    c = new EoClient({ baseUrl: srv.url, token: TOKEN, userAgent: 'eo-imagery-test', timeoutMs: 5000, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
  });
  after(async () => {
    await c.close();
    await srv.close();
  });

  it('redacts the token wherever the read of the error body stops, and before the message is clipped', async () => {
    // the body is read up to 16 KiB, the message clipped to 300 characters: the token straddles both
    const lead = 'Authorization: Bearer '.length;
    const starts = [0, 100, 280, 290, 295, 298, 299, 16 * 1024 - 20, 16 * 1024 - 10, 16 * 1024 - 3];
    for (const start of starts) {
      const at = start - lead;
      tokenAt = Math.max(0, at);
      const e = await c.readRange(`${srv.url}/assets/a.tif`, 0, 1024, { maxWholeFile: 1024 }).then(
        () => assert.fail('expected a rejection'),
        (err: unknown) => err as ApiError,
      );
      assert.ok(e instanceof ApiError);
      for (const text of [e.message, e.userMessage, e.serverMessage, JSON.stringify(e.details)]) {
        assert.deepEqual(leaks(text), [], `token at ${start}: ${text.slice(0, 400)}`);
      }
    }
  });

  it("redacts a pre-signed URL's signature echoed by another host", async () => {
    const other = await startTestServer((req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`SignatureDoesNotMatch for ${req.url}`);
    });
    try {
      const sig = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
      tokenAt = 0;
      const url = `${other.url.replace('127.0.0.1', 'localhost')}/bucket/scene.tif?X-Amz-Signature=${sig}&X-Amz-Expires=3600`;
      const e = (await c.readRange(url, 0, 10, { maxWholeFile: 10 }).catch((err: unknown) => err)) as ApiError;
      assert.ok(e instanceof ApiError);
      assert.equal(other.requests[0].headers.authorization, undefined, 'no token to another host');
      for (const text of [e.message, e.userMessage, JSON.stringify(e.details)]) assert.deepEqual(leaks(text, sig), [], text);
    } finally {
      await other.close();
    }
  });
});

describe('a service-account key echoed in an error body', () => {
  // A PEM key as a service-account JSON holds it: line breaks, `+`, `/` and `=`. Sent as a
  // store's secret, echoed back by a service whose 400 quotes the request in `details`.
  const KEY = [
    '-----BEGIN PRIVATE KEY-----',
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
    'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
    'NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ==',
    '-----END PRIVATE KEY-----',
    '',
  ].join('\n');
  /** The forms the key could take in a message or a log line: as sent, JSON-escaped once and twice. */
  const forms = [KEY, JSON.stringify(KEY).slice(1, -1), JSON.stringify(JSON.stringify(KEY)).slice(1, -1)];
  /** A line of the key's body, which no form of redaction may leave behind either. */
  const line = 'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu';

  let srv: TestServer;
  before(async () => {
    srv = await startTestServer((req, res) => {
      const sent = JSON.parse(req.body) as { secrets: Record<string, string> };
      const body = JSON.stringify({
        error: {
          code: 'bad_request',
          message: 'invalid store credentials',
          details: { secrets: sent.secrets, credentials: sent.secrets.credentials, hint: `could not parse ${sent.secrets.credentials}` },
        },
      });
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  after(() => srv.close());

  it('reaches neither the error nor the log, in any form', async () => {
    const logged: string[] = [];
    const c = new EoClient({
      baseUrl: srv.url,
      token: TOKEN,
      userAgent: 'eo-imagery-test',
      timeoutMs: 5000,
      onRequest: (e) => logged.push(JSON.stringify(e)),
    });
    try {
      const e = await c.stores
        .create({ name: 'archive bucket', type: 'GCS', configs: { bucket: 'b', region: 'europe-west1' }, secrets: { credentials: KEY } })
        .then(
          () => assert.fail('expected a rejection'),
          (err: unknown) => err,
        );
      assert.ok(e instanceof ApiError && e.status === 400, String(e));
      assert.match(e.userMessage, /invalid store credentials/);
      const shown = [e.message, e.userMessage, e.serverMessage, JSON.stringify(e.details), ...logged];
      assert.equal(logged.length, 1);
      for (const text of shown) {
        for (const form of forms) assert.ok(!text.includes(form), `a form of the key is in: ${text.slice(0, 300)}`);
        assert.ok(!text.includes(line), `a line of the key is in: ${text.slice(0, 300)}`);
      }
      assert.ok(JSON.stringify(e.details).includes('[redacted]'), 'the details say where the key was');
    } finally {
      await c.close();
    }
  });
});
