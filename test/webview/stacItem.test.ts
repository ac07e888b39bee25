import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, isType, openWebview } from './harness';
import { hostileItem, stacItem } from './fixtures';
import { waitUntil } from '../support/waitUntil';

after(() => closeBrowser());

const PNG_1PX = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('STAC item webview', () => {
  it('shows header, grouped properties with units, assets, links, footprint and actions', async () => {
    const h = await openWebview('stacItem');
    try {
      await h.waitFor(isType('ready'));
      await h.send({ type: 'item', item: stacItem(), stacUrl: 'https://example.test/v0/archives/collections/sentinel-2-l2a/items/S2-20240312-T43RFM' });
      await h.page.waitForSelector('#item-id');
      assert.equal(await h.page.textContent('#item-id'), 'S2-20240312-T43RFM');
      assert.equal(await h.page.textContent('#item-collection'), 'sentinel-2-l2a');
      // the extension's one date format, with its zone (the map and the sidebar show the same)
      assert.equal(await h.page.textContent('#item-datetime'), '2024-03-12 05:31:21 UTC');
      assert.match((await h.page.getAttribute('#item-datetime', 'title')) ?? '', /in your time zone$/);
      const groups = await h.page.$$eval('#properties table', (ts) => ts.map((t) => t.getAttribute('data-group')));
      assert.deepEqual(groups, ['core', 'eo', 'view', 'proj', 'sci', 'rd', 'others']);
      const cell = (key: string) => h.page.textContent(`#properties tr:has(th[title="${key}"]) td`);
      assert.equal(await cell('gsd'), '10 m');
      assert.equal(await cell('altitude'), '786 km');
      assert.equal(await cell('eo:cloud_cover'), '12.5 %');
      assert.equal(await cell('view:sun_azimuth'), '140.25°');
      assert.equal(await cell('proj:shape'), '10980 × 10980 px (rows × columns)');
      assert.equal(await cell('instruments'), 'msi');
      // identifiers are shown as written, quantities with separators
      assert.equal(await cell('proj:epsg'), '32643');
      assert.equal(await cell('sat:absolute_orbit'), '45123');
      assert.equal(await cell('sat:relative_orbit'), '62');
      assert.equal(await cell('s2:datatake_id'), '20240312053121');
      assert.equal(await cell('view:incidence_angle_count'), '12,345');
      assert.equal(await h.page.getAttribute('#properties tr:has(th[title="sci:doi"]) a', 'href'), 'https://doi.org/10.5270/S2_-742ikth');
      // assets and links
      assert.deepEqual(await h.page.$$eval('#assets tbody tr', (rs) => rs.map((r) => r.getAttribute('data-asset'))), ['thumbnail', 'visual']);
      await h.page.click('#assets tr[data-asset="visual"] a');
      assert.deepEqual(await h.waitFor(isType('openExternal')), { type: 'openExternal', url: 'https://example.test/visual.tif' });
      await h.page.click('#assets tr[data-asset="visual"] button');
      assert.deepEqual(await h.waitFor(isType('copy')), { type: 'copy', text: 'https://example.test/visual.tif' });
      assert.equal(await h.page.locator('#links li').count(), 2);
      // thumbnail: only an image data URL is shown
      await h.send({ type: 'thumbnail', dataUrl: 'https://evil.test/x.png', assetKey: 'thumbnail' });
      assert.equal(await h.page.locator('#thumbnail img').count(), 0);
      await h.send({ type: 'thumbnail', dataUrl: PNG_1PX, assetKey: 'thumbnail' });
      assert.equal(await h.page.locator('#thumbnail img').count(), 1);
      // footprint map drawn, raw JSON toggles and is remembered
      assert.equal(await h.page.locator('#footprint .leaflet-overlay-pane canvas.eo-footprints').count(), 1);
      assert.equal(await h.page.isVisible('#raw pre'), false);
      await h.page.click('#raw summary');
      assert.equal(await h.page.isVisible('#raw pre'), true);
      // <details> fires 'toggle' as a task after the click: wait for the state it saves.
      await waitUntil(h.page, () => (window as unknown as { __state?: { rawOpen?: boolean } }).__state?.rawOpen === true);
      const state = await h.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
      assert.deepEqual(state, { collection: 'sentinel-2-l2a', id: 'S2-20240312-T43RFM', rawOpen: true });
      for (const action of ['order', 'copyStacUrl', 'insightInput']) {
        await h.page.click(`button[data-action="${action}"]`);
        await h.waitFor((m) => (m as { action?: string }).action === action);
      }
      await h.send({ type: 'notice', level: 'error', text: 'Ordering is not available yet.' });
      assert.equal(await h.page.textContent('.notice'), 'Ordering is not available yet.');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('shows a load error in place', async () => {
    const h = await openWebview('stacItem');
    try {
      await h.waitFor(isType('ready'));
      await h.send({ type: 'error', message: 'Item not found (404).' });
      assert.equal(await h.page.textContent('#load-error'), 'Item not found (404).');
    } finally {
      await h.close();
    }
  });

  it('XSS corpus: markup, handlers and javascript: links stay inert text; layout holds', async () => {
    const h = await openWebview('stacItem', { viewport: { width: 1000, height: 800 } });
    try {
      await h.waitFor(isType('ready'));
      const item = hostileItem();
      await h.send({ type: 'item', item, stacUrl: 'https://example.test/item' });
      await h.page.waitForSelector('#item-id');
      await h.page.click('#raw summary');
      await h.page.waitForTimeout(300);
      const report = await h.page.evaluate(() => {
        const root = document.getElementById('root')!;
        return {
          xss: (window as unknown as { __xss?: number }).__xss,
          scripts: root.querySelectorAll('script').length,
          handlers: Array.from(root.querySelectorAll('*')).filter((e) => Array.from(e.attributes).some((a) => /^on/i.test(a.name))).length,
          imgs: Array.from(root.querySelectorAll('img')).map((i) => i.getAttribute('src')),
          // Leaflet's own zoom buttons are href="#"; everything else must be http(s)
          hrefs: Array.from(root.querySelectorAll('a:not(.leaflet-control a)')).map((a) => a.getAttribute('href')),
          idText: document.getElementById('item-id')!.textContent!.slice(0, 41),
          scrollWidth: document.documentElement.scrollWidth,
          headerHeight: document.querySelector('header')!.getBoundingClientRect().height,
        };
      });
      assert.equal(report.xss, undefined, 'no injected code ran');
      assert.equal(report.scripts, 0);
      assert.equal(report.handlers, 0);
      assert.deepEqual(report.imgs, []);
      assert.ok(
        report.hrefs.every((u) => u !== null && /^https:\/\//.test(u)),
        `only https links: ${report.hrefs.map((u) => u?.slice(0, 40))}`,
      );
      assert.equal(report.idText, '<script>window.__xss=1;alert(1)</script>W');
      assert.ok(report.scrollWidth <= 1000, `no horizontal overflow (scrollWidth ${report.scrollWidth})`);
      assert.ok(report.headerHeight < 400, `header stays compact (${report.headerHeight}px)`);
      // the javascript: link and the vbscript: link are shown as plain text
      assert.equal(await h.page.locator('#links li .nolink').count(), 2);
      assert.equal(await h.page.locator('#assets .nolink').count(), 2);
      // clicking the would-be links does nothing
      await h.page.locator('#links li .nolink').first().click();
      assert.equal(h.posted.filter(isType('openExternal')).length, 0);
      await h.page.screenshot({ path: process.env.EO_SHOTS ? `${process.env.EO_SHOTS}/stac-xss.png` : '/tmp/stac-xss.png', fullPage: false });
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});
