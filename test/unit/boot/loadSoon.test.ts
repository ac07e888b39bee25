// How dist/main.js loads the bundle (src/boot/loadSoon.ts): not while VS Code requires it, so
// that the extension host's request for the context leaves first; in a timer a moment later;
// by activate() itself when the context comes first; once; and a bundle that throws fails the
// activation instead of the extension host (no uncaught exception from the timer).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadSoon } from '../../../src/boot/loadSoon';

describe('loading the bundle soon after main.js is required (src/boot/loadSoon.ts)', () => {
  it('does not load while it is being set up, and loads in the timer', async () => {
    let runs = 0;
    const soon = loadSoon(() => ++runs, 2);
    assert.equal(runs, 0, 'loaded inside the require: the host could not send its request first');
    assert.equal(soon.loaded, false);
    await sleep(20);
    assert.equal(runs, 1);
    assert.equal(soon.loaded, true);
    assert.equal(soon.get(), 1);
    assert.equal(runs, 1, 'activate() after the timer loads nothing again');
  });

  it('loads at the first get() when that comes before the timer, and not again in the timer', async () => {
    let runs = 0;
    const soon = loadSoon(() => ++runs, 10);
    assert.equal(soon.get(), 1);
    await sleep(30);
    assert.equal(runs, 1);
    assert.equal(soon.get(), 1);
  });

  it("hands a load's failure to get() (the activation fails with it), and never throws from the timer", async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      let runs = 0;
      const soon = loadSoon(() => {
        runs++;
        throw new Error('the bundle threw');
      }, 2);
      await sleep(20);
      assert.deepEqual(uncaught, []);
      assert.throws(() => soon.get(), /the bundle threw/);
      assert.throws(() => soon.get(), /the bundle threw/);
      assert.equal(runs, 1, 'a failed load is not run again');
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('loads nothing once cancelled (an extension deactivated before it activated)', async () => {
    let runs = 0;
    const soon = loadSoon(() => ++runs, 2);
    soon.cancel();
    await sleep(20);
    assert.equal(runs, 0);
    assert.equal(soon.loaded, false);
  });
});
