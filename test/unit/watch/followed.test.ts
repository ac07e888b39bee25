/**
 * What the watcher keeps in the global state: kinds and ids only, read back after a reload;
 * whatever else the state holds (an older version's or a hostile value) is dropped, never trusted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeFollowed, encodeFollowed, FORGET_AFTER_MS, MAX_FOLLOWED, onService, type WatchRef } from '../../../src/watch/followed';

const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('followed list in the global state', () => {
  it('round trip: what is encoded is decoded, in order, through JSON', () => {
    const refs: WatchRef[] = [
      { kind: 'orderItem', id: '6f0c1c6e-1f0e-4b7b-9a55-0b6c0e1d2f3a', since: NOW - 1000 },
      { kind: 'delivery', id: 'd-42', since: NOW - 500 },
      { kind: 'download', id: 'dl_7', since: NOW },
      { kind: 'insightRun', id: 'run-1', parent: 'aoi-9', since: NOW },
      { kind: 'job', id: 'job-3', parent: 'wf-2', service: 'https://api.example.com/v0', since: NOW },
    ];
    const stored = JSON.parse(JSON.stringify(encodeFollowed(refs))) as unknown;
    assert.deepEqual(decodeFollowed(stored, NOW), refs);
  });

  it('keeps kinds, ids, the parent id, the service and a time: no name, no token, no signed URL', () => {
    const ref = {
      kind: 'download' as const,
      id: 'dl_7',
      since: NOW,
      service: 'https://api.example.com',
      name: 'Lake',
      signed_url: 'https://x/?sig=1',
      token: 'secret',
    };
    const stored = encodeFollowed([ref]);
    assert.deepEqual(Object.keys(stored.refs[0]).sort(), ['id', 'kind', 'service', 'since']);
    assert.ok(!JSON.stringify(stored).includes('secret') && !JSON.stringify(stored).includes('sig='));
  });

  it('drops unknown kinds, malformed ids, duplicates, runs without their AOI, and the too old', () => {
    const stored = {
      v: 1,
      refs: [
        { kind: 'orderItem', id: 'a', since: NOW },
        { kind: 'orderItem', id: 'a', since: NOW },
        { kind: 'job', id: 'j1', since: NOW },
        { kind: 'delivery', id: '../../etc/passwd', since: NOW },
        { kind: 'delivery', id: '', since: NOW },
        { kind: 'download', id: 42, since: NOW },
        { kind: 'insightRun', id: 'r1', since: NOW },
        { kind: 'insightRun', id: 'r2', parent: 'a b', since: NOW },
        { kind: 'download', id: 'old', since: NOW - FORGET_AFTER_MS - 1 },
        { kind: 'download', id: 'no-time' },
        'junk',
        null,
      ],
    };
    assert.deepEqual(decodeFollowed(stored, NOW), [
      { kind: 'orderItem', id: 'a', since: NOW },
      { kind: 'download', id: 'no-time', since: NOW },
    ]);
  });

  it('a service that is not a bounded http(s) URL is dropped, and the thing then belongs to any service', () => {
    const hostile = ['javascript:alert(1)', 'file:///etc/passwd', 'https://a b', `https://x/${'a'.repeat(600)}`, 42, ''];
    const stored = { v: 1, refs: hostile.map((service, i) => ({ kind: 'delivery', id: `d${i}`, service, since: NOW })) };
    const read = decodeFollowed(stored, NOW);
    assert.equal(read.length, hostile.length, 'the things are kept');
    for (const r of read) assert.equal(r.service, undefined, JSON.stringify(r));
  });

  it('onService: a thing belongs to the service it was followed on; one stored without a service, to any', () => {
    const ref: WatchRef = { kind: 'delivery', id: 'd', service: 'https://a.example', since: NOW };
    assert.equal(onService(ref, 'https://a.example'), true);
    assert.equal(onService(ref, 'https://b.example'), false);
    assert.equal(onService(ref, ''), false, 'signed out: nothing of a known service is read');
    assert.equal(onService({ service: undefined }, 'https://b.example'), true);
  });

  it('anything that is not a version-1 list reads as nothing', () => {
    for (const v of [undefined, null, 3, 'x', [], { v: 2, refs: [] }, { v: 1, refs: {} }, { refs: [{ kind: 'download', id: 'a' }] }]) {
      assert.deepEqual(decodeFollowed(v, NOW), [], JSON.stringify(v));
    }
  });

  it('keeps at most MAX_FOLLOWED, the newest', () => {
    const refs: WatchRef[] = Array.from({ length: MAX_FOLLOWED + 5 }, (_, i) => ({ kind: 'download', id: `d${i}`, since: NOW }));
    const back = decodeFollowed(encodeFollowed(refs), NOW);
    assert.equal(back.length, MAX_FOLLOWED);
    assert.equal(back[0].id, 'd5');
  });
});
