// A hostile shared view cannot flood the opener's service: the link of issue 39 (200 asset
// layers on one AOI of 1,000 assets, a time slider of 200 dates on 200 AOIs of 500 assets)
// opened in a real VS Code against a sandbox of its own, every request counted at the HTTP
// level by a proxy in front of it. The opening reads each listing once and only as far as
// needed, stays within 400 requests (the budget, written out here), makes no more requests
// than the view names distinct records, and names in its notification what it left out.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/commandIds';
import type { Opened } from '../../../src/commands/shareView/openView';
import { encodeLink } from '../../../src/commands/shareView/view';
import { FaultProxy } from '../../support/faultProxy';
import { seedHostileView } from '../../support/hostileView';
import { connectToSandbox, EXTENSION_ID, useSandbox } from '../harness/sandbox';
import { scriptedSuite } from '../support/run';
import { until } from '../support/until';

/** The most requests a view may make (src/commands/shareView/viewReads.ts), written out. */
const BUDGET = 400;

suite('share a view: a hostile link cannot flood the opener’s service', function () {
  this.timeout(240_000);
  const sb = useSandbox();
  const scripts = scriptedSuite(sb);

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the 200-layer, 200-date link: each listing read once, at most 400 requests, fewer than the records it names, the rest named as left out', async () => {
    const { sandbox } = sb.current;
    const proxy = await FaultProxy.start({ upstream: sandbox.url, announceSeed: false });
    try {
      // The extension talks to the sandbox through the proxy, which counts every request.
      await connectToSandbox({ ...sandbox, url: proxy.url });
      const { view, distinctRecords } = seedHostileView(sandbox, new URL(proxy.url).host);
      const link = encodeLink(view, EXTENSION_ID);
      // The map open first: its search form's own reads (satellites, collections, projects) are not the view's.
      sb.current.api.services.panels.showMap();
      const seen = (path: string) => (): boolean => proxy.log.some((r) => r.path.startsWith(path));
      for (const path of ['/v0/satellites', '/v0/archives/collections', '/v0/projects']) await until(`the map's own read of ${path}`, seen(path));
      const p = scripts.script();
      const start = proxy.log.length;
      const opened = await vscode.commands.executeCommand<Opened>(COMMANDS.openViewLink, link);
      // Not the view's either: the status reads of orders that earlier suites left in progress
      // (the sidebar's live rows and the watcher go on in the background); this view names none.
      const background = /^\/v0\/(orders|order-items)\//;
      const requests = proxy.log.slice(start).filter((r) => r.path.startsWith('/v0/') && !(r.method === 'GET' && background.test(r.path)));
      const count = (re: RegExp): number => requests.filter((r) => re.test(r.path)).length;

      assert.ok(requests.length <= BUDGET, `${requests.length} requests for one view (at most ${BUDGET}); besides AOIs: ${besidesAois(requests)}`);
      assert.ok(requests.length <= distinctRecords, `${requests.length} requests for ${distinctRecords} distinct records named`);
      const bigAoi = view.layers[0].kind === 'asset' ? view.layers[0].aoiId : '';
      assert.equal(count(new RegExp(`^/v0/aois/${bigAoi}/assets\\b`)), 10, 'the 1,000-asset listing read once, its 10 pages, for all 200 layers');
      assert.equal(count(/^\/v0\/satellites\b/), 1, 'the satellites once');
      // Each date's AOI: its first page of assets and the AOI itself, once each.
      for (const f of view.timeline?.frames.slice(0, 50) ?? []) {
        if (f.source.kind !== 'asset') continue;
        assert.equal(count(new RegExp(`^/v0/aois/${f.source.aoiId}/assets\\b`)), 1);
        assert.equal(count(new RegExp(`^/v0/aoi/${f.source.aoiId}$`)), 1);
      }

      assert.ok(opened, 'the view opened');
      assert.equal(opened.missing.length, 0, opened.missing.join(' / '));
      assert.equal(opened.leftOut.length, 1, opened.leftOut.join(' / '));
      const [left] = opened.leftOut;
      const over = /^(\d+) of the 200 dates of the time slider "Hostile slider"$/.exec(left);
      assert.ok(over, left);
      assert.equal(opened.shown, 200, 'the 200 asset layers shown');
      const note = p.messages.find((m) => m.severity === 'warning');
      assert.equal(
        note?.text,
        `The view is open. Left out, as the view needs more than ${BUDGET} requests to the service, the most a view may make with your account: ${left}.`,
      );
      const shownDates = await until(
        'the map to report the time slider',
        () => sb.current.api.services.panels.currentMap()?.viewState?.timeline?.frames.length,
      );
      assert.equal(shownDates + Number(over[1]), 200, 'the dates shown and those left out are the 200');
    } finally {
      await connectToSandbox(sandbox);
      await proxy.close();
    }
  });
});

/** The requests not for an AOI or its assets, named, so that a failure says whose they were. */
function besidesAois(requests: readonly { method: string; path: string }[]): string {
  const other = requests.filter((r) => !/^\/v0\/aois?\//.test(r.path)).map((r) => `${r.method} ${r.path}`);
  return other.length > 20 ? `${other.slice(0, 20).join(', ')}, …` : other.join(', ');
}
