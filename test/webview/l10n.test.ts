// The webviews speak the display language: with the bundle the extension passes (here a
// test-only German one), the map's and the STAC page's own strings are translated, values from
// the service are not, and a string the bundle lacks stays English. Every key of the test
// bundle is one the build exports, so the test follows the code's strings.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchPage } from '../../src/panels/protocol';
import { closeBrowser, isType, openWebview, ROOT } from './harness';
import { squareFeature, stacItem } from './fixtures';

const DE = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<string, string>;

after(() => closeBrowser());

describe('webview l10n', () => {
  it('the test bundle holds only strings the build exports', () => {
    const exported = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
    for (const key of Object.keys(DE)) assert.ok(key in exported, `"${key}" is not in l10n/bundle.l10n.json`);
  });

  it('the map shows its labels and search count from the bundle', async () => {
    const page: SearchPage = { searchId: 1, loaded: 2, hasMore: true, matched: 9, features: [squareFeature('r1', 1, 46, 1), squareFeature('r2', 3, 47, 1)] };
    const options = { collections: [{ id: 'c1', title: 'Collection one' }], satellites: [], projects: [], errors: {} };
    const h = await openWebview('map', { l10nBundle: DE, locale: 'de', onRequest: (r) => ((r as { method: string }).method === 'search' ? page : options) });
    try {
      await h.waitFor(isType('ready'));
      assert.equal(await h.page.getAttribute('html', 'lang'), 'de');
      assert.equal(await h.page.textContent('#search'), 'Hier suchen');
      assert.equal(await h.page.textContent('.search h2'), 'Hier suchen');
      assert.equal(await h.page.getAttribute('#tool-rect', 'aria-label'), 'Rechteck zeichnen');
      // not in the test bundle: English
      assert.equal(await h.page.getAttribute('#tool-poly', 'aria-label'), 'Draw a polygon');
      await h.page.evaluate(() =>
        (window as unknown as { eoMap: { onDrawn(s: unknown): void } }).eoMap.onDrawn({
          shape: 'rectangle',
          ring: [
            [0, 45],
            [5, 45],
            [5, 50],
            [0, 50],
            [0, 45],
          ],
        }),
      );
      await h.page.click('#search');
      await h.page.waitForSelector('#results li');
      assert.equal(await h.page.textContent('#status'), '2 von 9 Ergebnissen');
      assert.equal(await h.page.textContent('#load-more'), 'Mehr laden');
    } finally {
      await h.close();
    }
  });

  it('the STAC page translates its headings, actions and units, not the item', async () => {
    const h = await openWebview('stacItem', { l10nBundle: DE, locale: 'de' });
    try {
      await h.waitFor(isType('ready'));
      await h.send({ type: 'item', item: stacItem(), stacUrl: 'https://example.test/v0/archives/collections/sentinel-2-l2a/items/S2' });
      await h.page.waitForSelector('#item-id');
      assert.equal(await h.page.textContent('#properties h2'), 'Eigenschaften');
      assert.equal(await h.page.textContent('#properties h3'), 'Kern');
      assert.equal(await h.page.textContent('button[data-action="order"]'), 'Dieses Element bestellen');
      assert.equal(await h.page.textContent('#properties tr:has(th[title="gsd"]) td'), '10 Meter');
      assert.equal(await h.page.textContent('#item-id'), 'S2-20240312-T43RFM');
    } finally {
      await h.close();
    }
  });
});
