// A request that never left and one whose answer was lost are told apart: only the second may
// have placed an order, and neither is ever sent again by a spending command.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { ApiError, classifyFailure, isTransient, mayHaveActed, wasUnanswered } from '../../../src/api/errors';
import { transportError } from '../../../src/api/responseErrors';

const failure = (code: string): ApiError =>
  transportError(Object.assign(new Error(code), { code }), 'http://127.0.0.1:1', 'POST', '/v0/orders', undefined, 5_000);

describe('sent but unanswered, or never sent', () => {
  it('a reset, a closed socket or a timeout after sending: unanswered, may have acted, a read may retry', () => {
    for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const err = failure(code);
      assert.equal(classifyFailure(err), 'unanswered', code);
      assert.ok(wasUnanswered(err) && mayHaveActed(err) && isTransient(err), code);
    }
  });

  it('refused, unknown host or no connection in time: nothing was sent, nothing was placed', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
      const err = failure(code);
      assert.equal(classifyFailure(err), 'transient', code);
      assert.ok(!wasUnanswered(err) && !mayHaveActed(err) && isTransient(err), code);
    }
  });

  it('a 5xx may have acted; a 429 did not', () => {
    const http = (status: number): ApiError => new ApiError({ kind: 'http', method: 'POST', path: '/v0/orders', status, detailMessage: 'x' });
    assert.ok(mayHaveActed(http(502)));
    assert.ok(!mayHaveActed(http(429)));
  });
});
