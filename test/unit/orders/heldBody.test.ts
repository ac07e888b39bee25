/**
 * A download's body held ahead of the disk (src/commands/catalog/heldBody.ts): the source waits
 * once the bytes not yet written reach the bound and flows again when the writer catches up;
 * a drop is told only after every byte that came before it.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { HeldBody } from '../../../src/commands/catalog/heldBody';

const chunk = (n: number, fill: number): Buffer => Buffer.alloc(n, fill);
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('HeldBody', () => {
  it('pauses the source at its bound and resumes it once taken below half', async () => {
    const source = new Readable({ read() {} });
    const held = new HeldBody(source, 4096);
    for (let i = 0; i < 5; i++) source.push(chunk(1024, i));
    await turn();
    assert.equal(source.isPaused(), true, 'paused with 5 KiB waiting over a 4 KiB bound');
    const first = await held.next(3000);
    assert.deepEqual(
      first.map((c) => c[0]),
      [0, 1, 2],
      'batches of whole chunks, up to about the size asked',
    );
    assert.equal(source.isPaused(), false, '2 KiB left: flowing again');
    source.push(null);
    const rest = await held.next(1 << 20);
    assert.deepEqual(
      rest.map((c) => c[0]),
      [3, 4],
    );
    assert.deepEqual(await held.next(1 << 20), [], 'nothing after the end');
    assert.equal(held.cut(), undefined, 'a clean end is no cut');
  });

  it('tells a drop after the bytes that came before it', async () => {
    const source = new Readable({ read() {} });
    const held = new HeldBody(source);
    source.push(chunk(100, 7));
    await turn();
    source.destroy(new Error('socket hang up'));
    await turn();
    const batch = await held.next(1 << 20);
    assert.equal(batch.length, 1, 'the bytes before the drop are still given');
    assert.deepEqual(await held.next(1 << 20), []);
    assert.match(String(held.cut()), /socket hang up/);
  });

  it('wakes a waiting writer when given up on', async () => {
    const source = new Readable({ read() {} });
    const held = new HeldBody(source);
    const waiting = held.next(1 << 20);
    held.destroy();
    assert.deepEqual(await waiting, []);
    assert.equal(source.destroyed, true, 'the connection goes too');
  });

  it('drops what it held when given up on, so a cancelled writer writes no more', async () => {
    const source = new Readable({ read() {} });
    const held = new HeldBody(source);
    source.push(chunk(100, 1));
    source.push(chunk(100, 2));
    await turn();
    held.destroy();
    assert.deepEqual(await held.next(1 << 20), []);
  });
});
