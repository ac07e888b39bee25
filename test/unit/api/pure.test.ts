/** The client's pure parts: error decoding, retry policy, normalisation, timestamps, paging, polling. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  ApiError,
  collect,
  decodeErrorBody,
  isRetryable,
  iterateCursor,
  iterateOffset,
  iteratePageNum,
  normalizeBbox,
  normalizeOrder,
  orderPaidAt,
  parseRetryAfter,
  parseTimestamp,
  poll,
  retryDelayMs,
  DEFAULT_RETRY,
  type Order,
  type Page,
} from '../../../src/api';
import { normalizeVisualizationList } from '../../../src/api/normalize';

const label = { method: 'GET', path: '/x' };

describe('decodeErrorBody', () => {
  it('reads the standard envelope', () => {
    assert.deepEqual(decodeErrorBody(400, 'application/json', '{"error":{"code":"bad_request","message":"limit must be ≤ 100","details":"limit"}}'), {
      code: 'bad_request',
      message: 'limit must be ≤ 100',
      details: 'limit',
    });
  });
  it('keeps object details (archives) and falls back to them for the message', () => {
    const d = decodeErrorBody(400, 'application/json', '{"error":{"code":"x","details":{"field":"bbox"}}}');
    assert.deepEqual(d.details, { field: 'bbox' });
    assert.equal(d.message, 'field: bbox');
  });
  it('reads free-form objects, FastAPI detail arrays, JSON strings', () => {
    assert.equal(decodeErrorBody(404, 'application/json', '{"message":"no such project"}').message, 'no such project');
    assert.equal(decodeErrorBody(422, 'application/json', '{"detail":[{"msg":"field required"},{"msg":"bad int"}]}').message, 'field required; bad int');
    assert.equal(decodeErrorBody(400, 'application/json', '"plain string"').message, 'plain string');
    assert.deepEqual(decodeErrorBody(400, 'application/json', '{"error":"not_found","message":"gone"}'), {
      code: 'not_found',
      message: 'gone',
      details: { error: 'not_found', message: 'gone' },
    });
  });
  it('copes with CSV, HTML, text, empty and broken JSON', () => {
    assert.equal(decodeErrorBody(400, 'text/csv', 'error,message\r\nbad_request,bad tz\r\n').message, 'bad tz');
    assert.equal(decodeErrorBody(400, 'text/csv', 'something odd').message, 'something odd');
    assert.match(decodeErrorBody(502, 'text/html', '<html><head><title>502 Bad Gateway</title></head></html>').message, /HTML page: 502 Bad Gateway/);
    assert.equal(decodeErrorBody(500, undefined, '').message, 'Server error');
    assert.equal(decodeErrorBody(500, 'application/json', '{"error": {"code"').message, '{"error": {"code"');
    assert.equal(decodeErrorBody(500, 'text/plain', 'x'.repeat(1000)).message.length, 300);
  });
});

describe('retry policy', () => {
  const err = (init: Partial<ConstructorParameters<typeof ApiError>[0]>): ApiError =>
    new ApiError({ kind: 'http', method: 'GET', path: '/', detailMessage: '', ...init });
  it('retries only idempotent reads on the listed faults', () => {
    for (const s of [429, 502, 503, 504]) assert.ok(isRetryable('GET', err({ status: s })), String(s));
    for (const s of [400, 401, 403, 404, 409, 500]) assert.ok(!isRetryable('GET', err({ status: s })), String(s));
    assert.ok(isRetryable('GET', err({ kind: 'timeout' })));
    assert.ok(isRetryable('HEAD', err({ kind: 'network', code: 'ECONNRESET' })));
    assert.ok(!isRetryable('GET', err({ kind: 'network', code: 'ECONNREFUSED' })));
    assert.ok(!isRetryable('GET', err({ kind: 'protocol' })));
    for (const m of ['POST', 'DELETE', 'PUT', 'PATCH']) {
      assert.ok(!isRetryable(m, err({ status: 503 })));
      assert.ok(!isRetryable(m, err({ kind: 'timeout' })));
    }
  });
  it('backs off exponentially with jitter, capped; honours Retry-After', () => {
    const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      retryDelayMs(1, opts, undefined, () => 0),
      50,
    );
    assert.equal(
      retryDelayMs(1, opts, undefined, () => 1),
      100,
    );
    assert.equal(
      retryDelayMs(3, opts, undefined, () => 1),
      400,
    );
    assert.equal(
      retryDelayMs(10, opts, undefined, () => 1),
      1000,
    );
    assert.equal(retryDelayMs(1, opts, 2000), 2000);
    // Retry-After: 0 (a 503 storm) has the backoff as its floor: never back to back.
    assert.equal(
      retryDelayMs(1, opts, 0, () => 0),
      50,
    );
    assert.equal(
      retryDelayMs(3, opts, 0, () => 1),
      400,
    );
    assert.equal(
      retryDelayMs(3, opts, 300, () => 1),
      400,
      'the longer of the two',
    );
    assert.equal(retryDelayMs(1, opts, 60_000), undefined);
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(parseRetryAfter('soon'), undefined);
  });
});

describe('normalisation', () => {
  it('parses STAC bbox strings and rejects junk with the field', () => {
    assert.deepEqual(normalizeBbox(['77.1', '28.4', '77.3', '28.6'], 'item'), [77.1, 28.4, 77.3, 28.6]);
    assert.deepEqual(normalizeBbox([1, 2, 0, 3, 4, 9], 'item'), [1, 2, 3, 4]);
    assert.throws(() => normalizeBbox(['1', 'x', '3', '4'], 'features[2]'), /features\[2\]\.bbox\[1\]: expected a number, got "x"/);
    assert.throws(() => normalizeBbox(['1', '2'], 'item'), /expected 4 or 6 values/);
  });
  it('drops an empty paid_at and keeps unknown fields', () => {
    const o = normalizeOrder({ id: 'o', paid_at: '', extra: 7, order_items: [] } as unknown as Order);
    assert.equal('paid_at' in o, false);
    assert.equal(orderPaidAt(o), undefined);
    assert.equal((o as unknown as { extra: number }).extra, 7);
    const paid = normalizeOrder({ id: 'o', paid_at: '2024-03-01T10:00:00+01:00', order_items: [] } as unknown as Order);
    assert.equal(orderPaidAt(paid)?.date.toISOString(), '2024-03-01T09:00:00.000Z');
  });
  it('renames the singular visualization key', () => {
    const v = normalizeVisualizationList({ visualization: [], pagination: { offset: 0, limit: 10, total: 0 } });
    assert.deepEqual(v, { visualizations: [], pagination: { offset: 0, limit: 10, total: 0 } });
  });
  it('parses the three timestamp formats on demand, keeping the raw string', () => {
    const iso = parseTimestamp('2024-05-06T07:08:09.123456Z');
    assert.equal(iso?.date.toISOString(), '2024-05-06T07:08:09.123Z');
    assert.equal(iso?.format, 'iso');
    assert.equal(iso?.raw, '2024-05-06T07:08:09.123456Z');
    const py = parseTimestamp('2024-05-06 07:08:09.654321+00:00');
    assert.equal(py?.date.toISOString(), '2024-05-06T07:08:09.654Z');
    assert.equal(py?.format, 'python');
    assert.equal(parseTimestamp('2024-05-06 07:08:09+0530')?.date.toISOString(), '2024-05-06T01:38:09.000Z');
    const dmy = parseTimestamp('31-12-2023');
    assert.equal(dmy?.date.toISOString(), '2023-12-31T00:00:00.000Z');
    assert.equal(dmy?.dateOnly, true);
    assert.equal(parseTimestamp('2023-12-31')?.format, 'date');
    assert.equal(parseTimestamp('31-02-2024'), undefined);
    assert.equal(parseTimestamp(''), undefined);
    assert.equal(parseTimestamp('yesterday'), undefined);
    assert.equal(parseTimestamp('2024-05-06T07:08:09')?.date.toISOString(), '2024-05-06T07:08:09.000Z');
  });
});

describe('paging iterators', () => {
  const data = Array.from({ length: 23 }, (_, i) => ({ id: `r${i}` }));
  const server =
    (limitCap = 100) =>
    async ({ offset, limit }: { offset: number; limit: number }): Promise<Page<{ id: string }>> => ({
      items: data.slice(offset, offset + Math.min(limit, limitCap)),
      total: data.length,
      offset,
      limit,
    });
  it('offset/limit walks every page, respects the cap, tolerates a server-side limit cap', async () => {
    assert.deepEqual((await collect(iterateOffset(server(), (x) => x.id, label, { pageSize: 5 }))).length, 23);
    assert.deepEqual(
      (await collect(iterateOffset(server(), (x) => x.id, label, { pageSize: 5, cap: 7 }))).map((x) => x.id),
      data.slice(0, 7).map((x) => x.id),
    );
    assert.equal((await collect(iterateOffset(server(3), (x) => x.id, label, { pageSize: 10 }))).length, 23);
  });
  it('offset/limit catches an offset the server did not honour and too many items', async () => {
    await assert.rejects(
      collect(
        iterateOffset(
          async (r) => ({ ...(await server()(r)), offset: 0 }),
          (x) => x.id,
          label,
          { pageSize: 5 },
        ),
      ),
      /asked for offset 5, the server answered offset 0/,
    );
    await assert.rejects(
      collect(
        iterateOffset(
          async (r) => ({ items: data.slice(0, 9), total: 23, offset: r.offset, limit: r.limit }),
          (x) => x.id,
          label,
          { pageSize: 5 },
        ),
      ),
      /at most 5 items, the server sent 9/,
    );
    await assert.rejects(
      collect(
        iterateOffset(
          async (r) => ({ items: data.slice(r.offset, r.offset + r.limit), total: 3, offset: r.offset, limit: r.limit }),
          (x) => x.id,
          label,
          { pageSize: 5 },
        ),
      ),
      /there are 3 items but sent items 1–5/,
    );
  });
  it('page_num walks pages from 1 and catches a repeated page', async () => {
    const pages: number[] = [];
    const all = await collect(
      iteratePageNum(
        async ({ pageNum, pageSize }) => {
          pages.push(pageNum);
          return { items: data.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: data.length };
        },
        (x) => x.id,
        label,
        { pageSize: 10 },
      ),
    );
    assert.equal(all.length, 23);
    assert.deepEqual(pages, [1, 2, 3]);
    await assert.rejects(
      collect(
        iteratePageNum(
          async () => ({ items: data.slice(0, 10) }),
          (x) => x.id,
          label,
          { pageSize: 10 },
        ),
      ),
      /repeated page 1 when asked for page 2/,
    );
  });
  it('cursor: follows tokens, stops on null, catches loops and endless empty pages', async () => {
    const all = await collect(
      iterateCursor(async ({ cursor }) => {
        const i = cursor ? Number(cursor) : 0;
        return { items: data.slice(i, i + 10), next: i + 10 < data.length ? String(i + 10) : null };
      }, label),
    );
    assert.equal(all.length, 23);
    await assert.rejects(collect(iterateCursor(async ({ cursor }) => ({ items: [], next: String(Number(cursor ?? 0) + 1) }), label)), /empty pages in a row/);
    await assert.rejects(
      collect(iterateCursor(async ({ cursor }) => ({ items: [{ id: 'a' }], next: cursor === 'b' ? 'a' : cursor === 'a' ? 'b' : 'a' }), label)),
      /already sent/,
    );
  });
  it('rejects a bad page size', async () => {
    await assert.rejects(iterateOffset(server(), (x) => x.id, label, { pageSize: 0 }).next(), RangeError);
  });
});

describe('poll', () => {
  it('reads until final, reporting progress, with growing waits', async () => {
    const seen: number[] = [];
    let n = 0;
    const v = await poll(async () => ({ status: ++n < 4 ? 'in_progress' : 'success', progress: n * 25 }), {
      isFinal: (x) => x.status === 'success',
      onProgress: (x) => seen.push(x.progress),
      initialDelayMs: 1,
    });
    assert.equal(v.status, 'success');
    assert.deepEqual(seen, [25, 50, 75, 100]);
  });
  it('is cancellable and gives up after its timeout', async () => {
    const ac = new AbortController();
    const p = poll(async () => ({ status: 'created' }), { isFinal: () => false, signal: ac.signal, initialDelayMs: 1000 });
    setTimeout(() => ac.abort(), 20);
    await assert.rejects(p, (e: unknown) => e instanceof ApiError && e.kind === 'aborted');
    await assert.rejects(
      poll(async () => ({ status: 'created' }), { isFinal: () => false, initialDelayMs: 10, timeoutMs: 50, what: 'download d1' }),
      (e: unknown) => e instanceof ApiError && e.kind === 'timeout' && /download d1 is still "created"/.test(e.message),
    );
  });
});

describe('shape checks', () => {
  it('name the failing field, accept absent/null optionals, keep unknown fields', async () => {
    const { obj, opt, str, num, int, arr, assertShape } = await import('../../../src/api/shape');
    const check = obj({ id: str, 'eo:cloud_cover': opt(num), n: opt(int), tags: opt(arr(str)), inner: opt(obj({ ok: str })) });
    assert.equal(check({ id: 'a', extra: { anything: 1 } }), undefined);
    assert.equal(check({ id: 'a', 'eo:cloud_cover': null, n: 3, tags: [], inner: { ok: '' } }), undefined);
    assert.equal(check({ id: 1 }), '.id: expected string, got number');
    assert.equal(check({ id: 'a', 'eo:cloud_cover': '5' }), '["eo:cloud_cover"]: expected number, got string "5"');
    assert.equal(check({ id: 'a', n: 1.5 }), '.n: expected integer, got number');
    assert.equal(check({ id: 'a', 'eo:cloud_cover': Number.NaN }), '["eo:cloud_cover"]: expected number, got NaN');
    assert.equal(check({ id: 'a', tags: ['x', 2] }), '.tags[1]: expected string, got number');
    assert.equal(check({ id: 'a', inner: { ok: false } }), '.inner.ok: expected string, got boolean');
    assert.equal(check([]), ': expected object, got array');
    assert.throws(() => assertShape({ id: 2 }, check, 'thing'), /^ShapeError: thing\.id: expected string, got number$/);
    assert.throws(() => assertShape({ id: 2 }, check, ''), /^ShapeError: id: expected string, got number$/);
  });
});
