// Catalog, deliveries and downloads against the sandbox: search by order item, deliver to a
// store and follow it to SUCCESS on the sandbox clock (a refusal keeps the store and lets the
// path be fixed), download: follow to success, save into a folder with no partial file left.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Catalog, Delivery } from '../../../src/api';
import type { DownloadOutcome } from '../../../src/commands/catalog/download';
import { COMMANDS } from '../../../src/commandIds';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts, type Step } from '../support/scriptedPrompts';
import { client, handle, runScripted, runWhileAdvancing } from './ordersSupport';

suite('catalog: search, deliver and download against the sandbox', function () {
  this.timeout(60_000);
  const sb = useSandbox();

  teardown(() => handle(sb.current).faults.clear());

  async function someCatalog(): Promise<Catalog> {
    const page = await (await client(sb.current)).catalogs.searchPage({ limit: 5 });
    const withItem = page.items.find((c) => c.order_item_id) ?? page.items[0];
    assert.ok(withItem, 'the sandbox has no catalog entries for alice');
    return withItem;
  }

  test('search by order item lists only that item’s entries; Copy IDs copies the chosen ones', async () => {
    const conn = sb.current;
    const cat = await someCatalog();
    assert.ok(cat.order_item_id, 'catalog entries carry no order_item_id');
    const prompts = new ScriptedPrompts([
      { kind: 'input', match: /Order ids/, answer: '' },
      { kind: 'input', match: /Order item ids/, answer: cat.order_item_id },
      { kind: 'input', match: /Date range/, answer: '' },
      { kind: 'input', match: /Bounding box/, answer: '' },
      // results are named (place and day); the entry's id is in the item it carries
      {
        kind: 'pickMany',
        match: /Catalog: /,
        choose: (items) => items.filter((i) => (i as { catalog?: { id: string } }).catalog?.id === cat.id && !i.label.includes(cat.id)),
      },
      { kind: 'pick', match: /What to do/, choose: 'Copy IDs' },
    ]);
    const results = await runScripted<Catalog[] | undefined>(conn, prompts, COMMANDS.searchCatalog);
    prompts.assertDone();
    assert.ok(results && results.length > 0);
    assert.ok(
      results.every((c) => c.order_item_id === cat.order_item_id),
      'the search ignored the order item filter',
    );
    assert.equal(await vscode.env.clipboard.readText(), cat.id);
  });

  test('a bad bbox is refused while typing (the script cannot type past validation)', async () => {
    const conn = sb.current;
    const prompts = new ScriptedPrompts([
      { kind: 'input', match: /Order ids/, answer: '' },
      { kind: 'input', match: /Order item ids/, answer: '' },
      { kind: 'input', match: /Date range/, answer: '' },
      { kind: 'input', match: /Bounding box/, answer: '10, 20, 30' },
    ]);
    await runScripted(conn, prompts, COMMANDS.searchCatalog).catch(() => undefined);
    assert.throws(() => prompts.assertDone(), /rejected the scripted answer: Enter four numbers/);
  });

  test('deliver: a refused request keeps the store, the path is fixed, and the delivery is followed to SUCCESS', async () => {
    const conn = sb.current;
    const cat = await someCatalog();
    const store = (await (await client(conn)).stores.list())[0];
    assert.ok(store, 'no seeded store');
    handle(conn).faults.add({
      method: 'POST',
      path: '/v0/catalogs/deliveries',
      status: 400,
      count: 1,
      body: { error: { code: 'bad_request', message: 'cloud_info.path: the folder "tmp" is read-only', details: 'cloud_info.path' } },
    });
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Cloud store to deliver to/, choose: store.name },
      { kind: 'input', match: /Path inside the store/, answer: 'tmp' },
      { kind: 'message', match: /refused the delivery: .*read-only/, answer: 'Edit Entries…' },
      { kind: 'pick', match: /Which entry/, choose: 'Path in the store' },
      { kind: 'input', match: /Path inside the store/, answer: 'eo/integration' },
    ]);
    const deliveries = await runWhileAdvancing<Delivery[] | undefined>(conn, prompts, COMMANDS.deliver, [{ kind: 'catalog', record: cat }], 3_000);
    prompts.assertDone();
    assert.ok(deliveries && deliveries.length > 0, 'no deliveries');
    assert.deepEqual(
      deliveries.map((d) => d.status),
      deliveries.map(() => 'SUCCESS'),
    );
    assert.deepEqual(deliveries[0].cloud_delivery, { config: store.id, path: 'eo/integration' });
    assert.ok(
      prompts.messages.some((m) => m.severity === 'info' && /^Delivered to /.test(m.text)),
      'no completion message',
    );
  });

  test('deliver refuses catalog entries and order items together, before any request', async () => {
    const conn = sb.current;
    const cat = await someCatalog();
    const prompts = new ScriptedPrompts([]);
    const out = await runScripted(conn, prompts, COMMANDS.deliver, { kind: 'catalog', record: cat }, [
      { kind: 'catalog', record: cat },
      { kind: 'orderItem', record: { id: cat.order_item_id } },
    ]);
    prompts.assertDone();
    assert.equal(out, undefined);
    assert.match(prompts.messages[0]?.text ?? '', /either catalog entries or order items, not both/);
  });

  test('download: followed to success, saved into the chosen folder under its final name only', async () => {
    const conn = sb.current;
    const cat = await someCatalog();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-int-dl-'));
    const prompts = new ScriptedPrompts([
      { kind: 'message', match: /is ready/, answer: 'Save to Folder…' },
      { kind: 'openDialog', answer: [vscode.Uri.file(dir)] },
    ]);
    const out = await runWhileAdvancing<DownloadOutcome | undefined>(conn, prompts, COMMANDS.download, [{ catalogIds: [cat.id] }], 2_000);
    prompts.assertDone();
    assert.equal(out?.download.status, 'success');
    assert.ok(out?.file, 'nothing saved');
    assert.equal(path.dirname(out.file), dir);
    assert.deepEqual(fs.readdirSync(dir), [path.basename(out.file)], 'a temporary file was left behind');
    assert.equal(fs.readFileSync(out.file).subarray(0, 2).toString('latin1'), 'PK', 'not a zip archive');
    assert.ok(!prompts.messages.some((m) => m.text.includes(out.download.signed_url ?? '\u0000')), 'the signed URL was shown');
  });

  test('a link that expired while the folder was picked is asked for again: the file is saved, the old link refused once', async () => {
    const conn = sb.current;
    const cat = await someCatalog();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-int-dl-'));
    const before = conn.sandbox.requests.length;
    const prompts = new ScriptedPrompts([
      { kind: 'message', match: /is ready/, answer: 'Save to Folder…' },
      // Signed links live 15 minutes (the sandbox's, like the service's): the person took 16 to pick a folder.
      { kind: 'openDialog', answer: [vscode.Uri.file(dir)], before: async () => handle(conn).clock.advance(16 * 60_000) },
    ]);
    const out = await runWhileAdvancing<DownloadOutcome | undefined>(conn, prompts, COMMANDS.download, [{ catalogIds: [cat.id] }], 2_000);
    prompts.assertDone();
    assert.ok(out?.file, `nothing saved: ${prompts.messages.map((m) => m.text).join(' / ')}`);
    assert.equal(fs.readFileSync(out.file).subarray(0, 2).toString('latin1'), 'PK', 'not a zip archive');
    const after = conn.sandbox.requests.slice(before);
    // The file twice (the expired link, then the fresh one), and the download record read for the fresh link.
    const files = after.flatMap((r, i) => (r.startsWith('GET /files/') ? [i] : []));
    assert.equal(files.length, 2, after.join(', '));
    assert.equal(after[files[1] - 1], `GET /v0/catalogs/download/${out.download.id}`, 'the record read again between the two');
    assert.notEqual(after[files[0]], after[files[1]], 'the second try used a fresh link');
  });

  /**
   * Downloads a catalog entry into a fresh folder while its file's answer drops halfway and the
   * next try is refused (no passing error): the half is kept. `then`: how the person answers what
   * follows (nothing: the notification is let go).
   */
  async function cutThenRefused(...then: Step[]): Promise<{ out: DownloadOutcome | undefined; prompts: ScriptedPrompts; dir: string }> {
    const conn = sb.current;
    const cat = await someCatalog();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-int-dl-'));
    handle(conn).faults.add({ method: 'GET', path: /^\/files\//, status: 200, cutMidBody: true, count: 1 });
    handle(conn).faults.add({ method: 'GET', path: /^\/files\//, status: 404, count: 1 });
    const prompts = new ScriptedPrompts([
      { kind: 'message', match: /is ready/, answer: 'Save to Folder…' },
      { kind: 'openDialog', answer: [vscode.Uri.file(dir)] },
      ...then,
    ]);
    const out = await runWhileAdvancing<DownloadOutcome | undefined>(conn, prompts, COMMANDS.download, [{ catalogIds: [cat.id] }], 2_000);
    prompts.assertDone();
    return { out, prompts, dir };
  }

  test('a download cut, then refused, stops with what it kept and offers Resume, which goes on from its last byte', async () => {
    const { out, prompts, dir } = await cutThenRefused({
      kind: 'message',
      match: /stopped after \d+ KB: The download link answered 404\. Resume goes on from there\./,
      answer: 'Resume',
    });
    assert.ok(out?.file, `nothing saved: ${prompts.messages.map((m) => m.text).join(' / ')}`);
    const whole = Buffer.from(await (await fetch(out.download.signed_url ?? '')).arrayBuffer());
    assert.ok(fs.readFileSync(out.file).equals(whole), 'the resumed file is not the served one');
    assert.deepEqual(fs.readdirSync(dir), [path.basename(out.file)], 'a part file or its note was left behind');
  });

  test('a stopped download whose notification was let go is listed in Show Pending: Resume there finishes it, Discard deletes the kept bytes', async () => {
    const conn = sb.current;
    const stopIt = async (): Promise<string> => {
      // The notification that offers Resume is not answered: the person let it go.
      const { out, prompts, dir } = await cutThenRefused();
      assert.equal(out?.file, undefined, 'saved although the file was refused');
      assert.ok(
        prompts.messages.some((m) => /stopped after \d+ KB/.test(m.text) && m.buttons.includes('Resume')),
        `Resume not offered: ${prompts.messages.map((m) => m.text).join(' / ')}`,
      );
      assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.part')).length, 1, 'no part file kept');
      return dir;
    };
    const pendingThen = async (act: 'Resume' | 'Discard'): Promise<readonly vscode.QuickPickItem[]> => {
      const prompts = new ScriptedPrompts([
        { kind: 'pick', match: /pending/, choose: 'Saving the download of' },
        { kind: 'pick', match: /stopped after \d+ KB/, choose: act },
      ]);
      await runWhileAdvancing(conn, prompts, COMMANDS.showPending, [], 2_000);
      prompts.assertDone();
      return prompts.seen[0].rows ?? [];
    };

    const dir = await stopIt();
    const listed = await pendingThen('Resume');
    const row = listed.find((i) => i.label.includes('Saving the download of'));
    assert.match(row?.description ?? '', /^stopped after \d+ KB$/);
    assert.match(row?.detail ?? '', /^The download link answered 404 · stopped at .+ · pick to resume or discard$/);
    const files = fs.readdirSync(dir);
    assert.equal(files.length, 1, `left behind: ${files.join(', ')}`);
    const saved = fs.readFileSync(path.join(dir, files[0]));
    assert.equal(saved.subarray(0, 2).toString('latin1'), 'PK', 'not a zip archive');
    // A zip's last record (end of central directory) is in its last bytes: the whole file came.
    assert.ok(saved.subarray(-22).subarray(0, 4).equals(Buffer.from('PK\x05\x06', 'latin1')), 'the resumed zip is not whole');
    const { services } = conn.api;
    assert.equal(services.watcher.stopped.list().length, 0, 'still listed after it finished');

    const other = await stopIt();
    await pendingThen('Discard');
    assert.deepEqual(fs.readdirSync(other), [], 'the kept bytes or their note were not deleted');
    assert.equal(services.watcher.stopped.list().length, 0, 'still listed after Discard');
  });

  test('download of an order item whose link fails to save leaves no file and says why', async () => {
    const conn = sb.current;
    const cat = await someCatalog();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-int-dl-'));
    const prompts = new ScriptedPrompts([
      { kind: 'message', match: /is ready/, answer: 'Save to Folder…' },
      { kind: 'openDialog', answer: [vscode.Uri.file(dir)] },
    ]);
    // The signed file URL drops the connection instead of answering.
    handle(conn).faults.add({ method: 'GET', path: /^\/files\//, status: 500, reset: true, count: 1 });
    const out = await runWhileAdvancing<DownloadOutcome | undefined>(conn, prompts, COMMANDS.download, [{ orderItemIds: [cat.order_item_id] }], 2_000);
    prompts.assertDone();
    assert.equal(out?.file, undefined);
    assert.deepEqual(fs.readdirSync(dir), []);
    assert.ok(
      prompts.messages.some((m) => m.severity === 'error' && /Saving the download of .* failed/.test(m.text)),
      'no error shown',
    );
    assert.ok(!prompts.messages.some((m) => /\.\./.test(m.text)), 'a sentence ends in two periods');
  });
  test('a download link that is not http(s) is neither opened nor saved', async () => {
    const conn = sb.current;
    const cat = await someCatalog();
    handle(conn).faults.add({
      method: 'POST',
      path: '/v0/catalogs/download',
      status: 200,
      count: 1,
      body: { id: 'dl-hostile', status: 'success', signed_url: 'command:workbench.action.terminal.new' },
    });
    const prompts = new ScriptedPrompts([]);
    const out = await runWhileAdvancing<DownloadOutcome | undefined>(conn, prompts, COMMANDS.download, [{ catalogIds: [cat.id] }], 2_000);
    assert.equal(out?.file, undefined);
    assert.ok(!prompts.messages.some((m) => /is ready\./.test(m.text) && m.buttons.includes('Open Link')), 'Open Link was offered for a command: link');
    assert.ok(
      prompts.messages.some((m) => m.severity === 'error' && /not an http\(s\) address/.test(m.text)),
      JSON.stringify(prompts.messages),
    );
  });
});
