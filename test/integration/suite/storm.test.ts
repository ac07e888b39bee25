// Reads ride out a bad minute: through the fault proxy, every GET answers 503 (Retry-After: 1)
// for a full 60 s. A Refresh of the Projects view in that storm keeps the projects it showed,
// with a row that says they are stale, when they were read, and Retry; within 10 s of the
// storm's end the view has reloaded by itself. The storm is not shortened: the recovery time is
// measured from the end of a real 60 s storm, after every backoff the extension has reached.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import { FaultProxy } from '../../support/faultProxy';
import { connectToSandbox, useSandbox } from '../harness/sandbox';
import { printFigure } from '../support/figures';

const STORM_MS = 60_000;
const RECOVERY_MS = 10_000;

type StaleRow = ExplorerNode & { readAt?: number };

function label(n: ExplorerNode): string {
  const l = n.getTreeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

suite('sidebar through a 60 s 503 storm', function () {
  this.timeout(STORM_MS + 60_000);
  const env = useSandbox();
  let proxy: FaultProxy | undefined;

  teardown(async () => {
    if (!proxy) return;
    await connectToSandbox(env.current.sandbox);
    await proxy.close();
    proxy = undefined;
  });

  test('a refresh in the storm keeps the rows, marked stale with the time read and Retry; back within 10 s of its end', async () => {
    proxy = await FaultProxy.start({ upstream: env.current.sandbox.url });
    await connectToSandbox({ ...env.current.sandbox, url: proxy.url });
    const explorer = env.current.api.services.explorer as ExplorerApi;
    const provider = explorer.providers.projects;
    explorer.refresh('projects');
    const good = await provider.getChildren();
    const records = good.filter((n) => n.kind === 'project').map((n) => n.key);
    assert.ok(records.length > 0, 'the sandbox seeds projects');
    const readBefore = Date.now();

    proxy.add({ method: 'GET', forMs: STORM_MS, toxic: { kind: 'status', status: 503, retryAfter: '1' } });
    const stormEnds = Date.now() + STORM_MS;
    await vscode.commands.executeCommand('eoImagery.refreshProjects');

    let looks = 0;
    while (Date.now() < stormEnds - 2_000) {
      const rows = await provider.getChildren();
      if (Date.now() >= stormEnds) break;
      looks++;
      assert.deepEqual(
        rows.filter((n) => n.kind === 'project').map((n) => n.key),
        records,
        'the projects shown before the storm stay',
      );
      const last = rows.at(-1) as StaleRow;
      // Between two loads the list shows its stale row; during one, "Loading…" under the same rows.
      if (last.kind === 'error') {
        assert.ok(last.readAt !== undefined && last.readAt <= readBefore, `marked with the time read: ${last.readAt}`);
        assert.match(label(last), /^Stale: projects as read at .+; could not refresh: .*503/i);
        assert.equal(last.getTreeItem().description, 'Retry');
        assert.equal(last.getTreeItem().command?.command, 'eoImagery.retryLoad');
      } else assert.equal(last.kind, 'loadMore', `unexpected last row ${last.kind}: ${label(last)}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    assert.ok(looks >= 10, `looked at the view ${looks} times in the storm`);
    assert.ok(
      proxy.log.some((r) => r.toxic === 'status' && r.path.startsWith('/v0/projects')),
      'the storm reached the projects listing',
    );

    // Nobody clicks anything: the view comes back by itself.
    for (;;) {
      const rows = await provider.getChildren();
      if (!rows.some((n) => n.kind === 'error')) break;
      assert.ok(Date.now() - stormEnds < RECOVERY_MS, `still stale ${Date.now() - stormEnds} ms after the storm`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const back = Date.now() - stormEnds;
    assert.ok(back < RECOVERY_MS, `back ${back} ms after the storm`);
    const rows = await provider.getChildren();
    assert.deepEqual(
      rows.filter((n) => n.kind === 'project').map((n) => n.key),
      records,
    );
    printFigure(`503 storm of ${STORM_MS / 1000} s: the Projects view was back ${back} ms after it ended (under load from other work)`);
  });
});
