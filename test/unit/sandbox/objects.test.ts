/**
 * Signed file links answer as an object store does (S3/GCS semantics from their documentation
 * and RFC 9110): ranges, If-Range, ETag, Last-Modified. Expected values come from the RFC, not
 * from what the sandbox happens to send.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { HttpError } from '../../../src/sandbox/errors';
import { asStoredObject, streamedEtag } from '../../../src/sandbox/objects';
import type { Res } from '../../../src/sandbox/router';

const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const whole: Res = { status: 200, raw: bytes, contentType: 'application/zip' };
const md5 = `"${createHash('md5').update(bytes).digest('hex')}"`;
const modified = Date.UTC(2026, 0, 2, 3, 4, 5);
const lastModified = 'Fri, 02 Jan 2026 03:04:05 GMT';

function body(r: Res): Buffer {
  if (r.raw !== undefined) return Buffer.from(r.raw);
  return Buffer.concat([...(r.stream?.chunks() ?? [])]);
}

describe('sandbox signed files answer like an object store', () => {
  it('gives the whole file with a strong MD5 ETag, Last-Modified and Accept-Ranges', () => {
    const r = asStoredObject({}, whole, { modified });
    assert.equal(r.status, 200);
    assert.equal(r.headers?.etag, md5);
    assert.equal(r.headers?.['last-modified'], lastModified);
    assert.equal(r.headers?.['accept-ranges'], 'bytes');
    assert.deepEqual(body(r), bytes);
  });

  it('answers Range: bytes=N- with 206 and the rest of the file', () => {
    const r = asStoredObject({ range: 'bytes=600-' }, whole, { modified });
    assert.equal(r.status, 206);
    assert.equal(r.headers?.['content-range'], 'bytes 600-999/1000');
    assert.deepEqual(body(r), bytes.subarray(600));
  });

  it('honours If-Range with the current ETag or Last-Modified, and sends the whole file for a stale one', () => {
    assert.equal(asStoredObject({ range: 'bytes=10-', 'if-range': md5 }, whole, { modified }).status, 206);
    assert.equal(asStoredObject({ range: 'bytes=10-', 'if-range': lastModified }, whole, { modified }).status, 206);
    const stale = asStoredObject({ range: 'bytes=10-', 'if-range': '"0123"' }, whole, { modified });
    assert.equal(stale.status, 200);
    assert.deepEqual(body(stale), bytes);
  });

  it('refuses a range past the end with 416 and the size', () => {
    assert.throws(
      () => asStoredObject({ range: 'bytes=1000-' }, whole, { modified }),
      (e: unknown) => e instanceof HttpError && e.status === 416 && e.headers['content-range'] === 'bytes */1000',
    );
  });

  it('answers If-None-Match with 304 and a stale If-Match with 412', () => {
    assert.equal(asStoredObject({ 'if-none-match': md5 }, whole, { modified }).status, 304);
    assert.throws(
      () => asStoredObject({ 'if-match': '"other"' }, whole, { modified }),
      (e: unknown) => e instanceof HttpError && e.status === 412,
    );
  });

  it('slices a streamed body at any offset, across chunk boundaries', () => {
    const streamed: Res = { status: 200, stream: { length: 1000, chunks: () => [bytes.subarray(0, 333), bytes.subarray(333, 700), bytes.subarray(700)] } };
    const etag = streamedEtag('key', 1000);
    const r = asStoredObject({ range: 'bytes=300-', 'if-range': etag }, streamed, { etag, modified });
    assert.equal(r.status, 206);
    assert.equal(r.stream?.length, 700);
    assert.deepEqual(body(r), bytes.subarray(300));
  });
});
