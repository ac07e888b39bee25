import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALLOWED_FILES_KEY, AllowedFiles, MAX_FILES, type StateStore } from '../../../src/panels/imagery/allowedFiles';

function memento(): StateStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string) => data.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void data.set(key, value),
  };
}

describe('the files a revived map may read again', () => {
  it('are those the extension put on the map before, kept as digests in the workspace state', () => {
    const store = memento();
    const before = new AllowedFiles(store, false);
    before.add(['https://host/a.tif?X-Amz-Signature=secret', 'https://host/b.tif']);
    const saved = store.data.get(ALLOWED_FILES_KEY) as string[];
    assert.equal(saved.length, 2);
    assert.ok(saved.every((d) => /^[0-9a-f]{64}$/.test(d)));
    assert.ok(!JSON.stringify(saved).includes('secret'), 'no URL is stored');
    const revived = new AllowedFiles(store, true);
    assert.ok(revived.has('https://host/a.tif?X-Amz-Signature=secret'));
    assert.ok(revived.has('https://host/b.tif'));
    assert.ok(!revived.has('https://elsewhere/c.tif'));
  });

  it('start empty for a new map, and ignore what is not a digest', () => {
    const store = memento();
    new AllowedFiles(store, false).add(['https://host/a.tif']);
    assert.ok(!new AllowedFiles(store, false).has('https://host/a.tif'), 'a new map starts a new list');
    assert.deepEqual(store.data.get(ALLOWED_FILES_KEY), []);
    store.data.set(ALLOWED_FILES_KEY, ['https://host/a.tif', 42, null]);
    assert.ok(!new AllowedFiles(store, true).has('https://host/a.tif'));
  });

  it(`keep the most recent ${MAX_FILES}`, () => {
    const store = memento();
    const files = new AllowedFiles(store, false);
    files.add(Array.from({ length: MAX_FILES + 10 }, (_, i) => `https://host/${i}.tif`));
    assert.equal((store.data.get(ALLOWED_FILES_KEY) as string[]).length, MAX_FILES);
    const revived = new AllowedFiles(store, true);
    assert.ok(!revived.has('https://host/0.tif'));
    assert.ok(revived.has(`https://host/${MAX_FILES + 9}.tif`));
  });
});
