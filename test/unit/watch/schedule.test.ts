/**
 * The watcher's schedule: the backoff per thing (doubling while nothing changes, back to the
 * base after a change, capped), and the request budget (never more than `perMinute` requests
 * in any minute, bursts included), with a clock passed in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffDelay, BACKOFF, BUDGET, chooseDue, firstSlot, holdFor, HOLD, nextSlot, RequestBudget } from '../../../src/watch/schedule';

describe('watcher backoff', () => {
  it('doubles from the base while nothing changes, up to the cap', () => {
    const o = { baseMs: 3_000, maxMs: 60_000 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 40].map((n) => backoffDelay(n, o)),
      [3_000, 6_000, 12_000, 24_000, 48_000, 60_000, 60_000, 60_000],
    );
    assert.equal(backoffDelay(-3, o), 3_000, 'a negative count is the first wait');
    assert.equal(backoffDelay(1e9, o), 60_000, 'no overflow past the cap');
  });

  it('the default schedule starts at 3 s and settles at 5 min', () => {
    assert.equal(backoffDelay(0), 3_000);
    assert.equal(backoffDelay(100), 5 * 60_000);
    assert.equal(BACKOFF.maxMs, 300_000);
  });

  it('a slot moves one doubling further per unchanged read and back to the base after a change', () => {
    const o = { baseMs: 1_000, maxMs: 8_000 };
    let s = firstSlot(0, o);
    assert.deepEqual(s, { due: 1_000, unchanged: 0 });
    s = nextSlot(s, false, 1_000, o);
    assert.deepEqual(s, { due: 3_000, unchanged: 1 });
    s = nextSlot(s, false, 3_000, o);
    assert.deepEqual(s, { due: 7_000, unchanged: 2 });
    s = nextSlot(s, false, 7_000, o);
    s = nextSlot(s, false, 15_000, o);
    assert.deepEqual(s, { due: 23_000, unchanged: 4 }, 'capped at 8 s');
    s = nextSlot(s, true, 23_000, o);
    assert.deepEqual(s, { due: 24_000, unchanged: 0 }, 'a change resets the wait');
  });
});

describe('watcher request budget', () => {
  it('grants at most perMinute requests in any sliding minute', () => {
    const b = new RequestBudget({ perMinute: 3 });
    assert.equal(b.take(0), true);
    assert.equal(b.take(10), true);
    assert.equal(b.take(20), true);
    assert.equal(b.take(30), false, 'the fourth in the same minute is refused');
    assert.equal(b.nextFreeAt(30), 60_000, 'free again when the first leaves the window');
    assert.equal(b.take(59_999), false);
    assert.equal(b.take(60_000), true);
    assert.equal(b.used(60_000), 3);
    assert.equal(b.nextFreeAt(60_001), 60_010);
  });

  it('over ten simulated minutes of constant demand, no minute sees more than the budget', () => {
    const b = new RequestBudget(BUDGET);
    const granted: number[] = [];
    for (let t = 0; t < 10 * 60_000; t += 250) if (b.take(t)) granted.push(t);
    for (const start of granted) {
      const inMinute = granted.filter((t) => t >= start && t < start + 60_000).length;
      assert.ok(inMinute <= BUDGET.perMinute, `${inMinute} requests in the minute from ${start} ms`);
    }
    assert.equal(granted.length, 10 * BUDGET.perMinute, 'and the budget is used when there is demand');
  });

  it('chooseDue reads the oldest due groups first, as many as the budget has room for', () => {
    const groups = [
      { name: 'late', due: 500 },
      { name: 'not yet', due: 5_000 },
      { name: 'oldest', due: 100 },
      { name: 'middle', due: 300 },
    ];
    assert.deepEqual(
      chooseDue(groups, 1_000, 2).map((g) => g.name),
      ['oldest', 'middle'],
    );
    assert.deepEqual(
      chooseDue(groups, 1_000, 0).map((g) => g.name),
      [],
      'budget spent',
    );
    assert.deepEqual(
      chooseDue(groups, 6_000, 10).map((g) => g.name),
      ['oldest', 'middle', 'late', 'not yet'],
    );
  });

  it('a hold (a service’s Retry-After) refuses every request until it ends; a shorter one does not shorten it', () => {
    const b = new RequestBudget({ perMinute: 3 });
    assert.equal(b.take(0), true);
    b.hold(10_000);
    b.hold(5_000);
    assert.equal(b.free(9_999), 0);
    assert.equal(b.take(9_999), false);
    assert.equal(b.nextFreeAt(1_000), 10_000);
    assert.equal(b.take(10_000), true);
    assert.deepEqual(b.state(10_000), { sent: [0, 10_000], heldUntil: 0 }, 'the state to keep: the minute’s requests, no hold once over');
    const again = new RequestBudget({ perMinute: 3 }, b.state(10_000).sent);
    assert.equal(again.free(10_000), 1, 'a budget rebuilt from its state grants what is left');
  });

  it('holdFor: a Retry-After of 0 still holds 3 s; a date a year ahead holds 10 minutes', () => {
    assert.equal(holdFor(0), HOLD.minMs);
    assert.equal(HOLD.minMs, 3_000);
    assert.equal(holdFor(20_000), 20_000);
    assert.equal(holdFor(365 * 24 * 3600_000), 10 * 60_000);
    assert.equal(holdFor(Number.NaN), 10 * 60_000);
  });
});
