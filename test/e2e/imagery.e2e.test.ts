// Imagery as a person sees it in code-server, signed in to the sandbox: Archive → an item →
// "Show Imagery" draws its scene in true colour, in the hues of its own thumbnail; Projects → an AOI → Visualizations → an
// index → "Show Imagery" draws the index in its colour map with the legend. Screenshots go to
// test-results/screenshots/imagery-*.png; CSP violations or script errors in the map fail it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import { api, clearArchiveItem, contextMenu, imageryRowSettled, watchWebviewConsole, webviewFrame } from './webviews';
import { collapseView, expandRow, openEoContainer, screenshot, soleView, viewSection, withSandboxWorkbench } from './workbench';
import { hueDifference, srgbToLab } from '../support/colourDifference';
import { imageryView, meanColour } from '../support/imageryView';

/** Most the scene's mean hue on the map may differ from its own thumbnail's (per-band stretching was 30° and more off). */
const MAX_HUE_DIFFERENCE = 6;

/** The mean colour of a PNG's pixels that are not black (a quick-look is black outside the footprint), decoded in the map's page. */
async function thumbnailMean(map: Frame, png: Buffer): Promise<[number, number, number]> {
  const rgba = await map.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    // black outside the footprint: not part of the picture
    for (let o = 0; o < d.length; o += 4) if (d[o] + d[o + 1] + d[o + 2] === 0) d[o + 3] = 0;
    return Array.from(d);
  }, png.toString('base64'));
  return meanColour(Uint8Array.from(rgba)).rgb;
}

test('imagery: an archive scene in true colour and an NDVI visualization with its legend', { timeout: 480_000 }, async () => {
  await withSandboxWorkbench('imagery', {}, async ({ page, base, token }) => {
    const webviewConsole = watchWebviewConsole(page);
    await page.setViewportSize({ width: 1400, height: 860 });
    await openEoContainer(page);
    await soleView(page, 'Archive');
    // the clearest of the first items, as a person would pick for a look
    const { collection: c, itemId } = await clearArchiveItem(base, token);
    await expandRow(page, 'Archive', c.title || c.id, itemId);
    await contextMenu(page, 'Archive', itemId, 'Show Imagery');
    const map = await webviewFrame(page, 'eoMap');
    const scene = await imageryRowSettled(map, `archive:${c.id}/${itemId}`);
    assert.equal(scene.state, 'ready', scene.text);
    // natural colours: the scene drawn has the hues of its own thumbnail (shown while it loads)
    const item = await api<{ assets: Record<string, { href: string }> }>(base, token, `/v0/archives/collections/${c.id}/items/${itemId}`);
    const thumb = Buffer.from(await (await fetch(item.assets.thumbnail.href)).arrayBuffer());
    const drawn = meanColour((await imageryView(map)).rgba);
    assert.ok(drawn.n > 10_000, `the scene covers ${drawn.n} pixels of the map`);
    const quickLook = await thumbnailMean(map, thumb);
    const hue = hueDifference(srgbToLab(drawn.rgb), srgbToLab(quickLook));
    const colours = `mean colour on the map rgb(${drawn.rgb.map(Math.round).join(', ')}), the thumbnail's rgb(${quickLook.map(Math.round).join(', ')}): ${hue.toFixed(1)}° apart`;
    console.log(colours);
    assert.ok(hue <= MAX_HUE_DIFFERENCE, colours);
    // the stretch controls: one range for red, green and blue, per band a choice
    const row = map.locator(`.eo-imagery-row[data-id="archive:${c.id}/${itemId}"]`);
    assert.equal(await row.getByLabel('Stretch mode').inputValue(), 'linked');
    await screenshot(page, 'imagery-true-colour');

    // an index visualization of an AOI whose mosaics are on the sandbox host
    await collapseView(page, 'Archive');
    const projectsHeader = viewSection(page, 'Projects').locator('.pane-header');
    if ((await projectsHeader.getAttribute('aria-expanded')) === 'false') await projectsHeader.click();
    const projects = await api<{ projects: Array<{ id: string; name: string }> }>(base, token, '/v0/projects?page_num=1&page_size=50');
    const aois = await api<{ aois: Array<{ aoi_id: string; name: string; project_id: string }> }>(base, token, '/v0/aois?limit=100');
    const indices = await api<{ indices: Array<{ id: string; name: string; expression_type: string }> }>(base, token, '/v0/indices?limit=100');
    const indexById = new Map(indices.indices.map((i) => [i.id, i]));
    let chosen: { aoi: (typeof aois.aois)[number]; vis: { id: string; index_name: string } } | undefined;
    for (const aoi of aois.aois) {
      const assets = await api<{ assets: Array<{ path: string; visualization_id: string }> }>(base, token, `/v0/aois/${aoi.aoi_id}/assets?limit=20`);
      if (!assets.assets.some((a) => !a.visualization_id && /^https?:/.test(a.path))) continue;
      // The service's visualization list names only the index (OpenAPI): the name and the
      // expression type come from the index.
      const vis = await api<{ visualization?: Array<{ id: string; index_id: string }> }>(base, token, `/v0/aois/${aoi.aoi_id}/visualizations?limit=20`);
      const v = (vis.visualization ?? []).find((x) => {
        const index = indexById.get(x.index_id);
        return index?.expression_type === 'index' && /NDVI/i.test(index.name);
      });
      if (v) {
        chosen = { aoi, vis: { id: v.id, index_name: indexById.get(v.index_id)?.name ?? '' } };
        break;
      }
    }
    assert.ok(chosen, 'no AOI with http(s) mosaics and an NDVI visualization on the sandbox');
    const project = projects.projects.find((p) => p.id === chosen.aoi.project_id)?.name ?? '';
    await expandRow(page, 'Projects', project, chosen.aoi.name);
    await expandRow(page, 'Projects', chosen.aoi.name, 'Visualizations');
    await expandRow(page, 'Projects', 'Visualizations', chosen.vis.index_name);
    await contextMenu(page, 'Projects', chosen.vis.index_name, 'Show Imagery');
    const id = `visualization:${chosen.aoi.aoi_id}/${chosen.vis.id}`;
    const ndvi = await imageryRowSettled(map, id);
    assert.equal(ndvi.state, 'ready', ndvi.text);
    await map.locator(`.eo-legend[data-id="${id}"]`).waitFor({ state: 'visible' });
    // only the NDVI layer in the picture
    await map.locator(`.eo-imagery-row[data-id="archive:${c.id}/${itemId}"] input.visible`).uncheck();
    await map.waitForTimeout(500);
    await screenshot(page, 'imagery-ndvi');

    // At 1280 x 800 the tools sit in the dock beside the map, and the map's own controls on it:
    // no box covers another
    await page.setViewportSize({ width: 1280, height: 800 });
    await map.waitForTimeout(500);
    const boxes = await map.evaluate(() => {
      const box = (e: Element): { left: number; right: number; top: number; bottom: number } => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const dock = document.querySelector('#eo-dock');
      const mapEl = document.querySelector('#map');
      return {
        dock: dock ? box(dock) : undefined,
        map: mapEl ? box(mapEl) : undefined,
        inDock: ['layers', 'legend'].filter((slot) => document.querySelector(`#eo-dock [data-slot="${slot}"] .body > :not([hidden])`)),
        // the search form's filter boxes within the page (they ran past its right edge)
        filters: Array.from(document.querySelectorAll('.filter-value')).map((e) => box(e).right - document.documentElement.clientWidth),
        controls: Array.from(document.querySelectorAll('#map .leaflet-control'))
          .filter((c) => (c as HTMLElement).offsetParent)
          .map(box),
      };
    });
    assert.ok(boxes.dock && boxes.map, 'no dock beside the map');
    assert.deepEqual(boxes.inDock, ['layers', 'legend'], 'the imagery list and the legend are not in the dock');
    assert.ok(boxes.dock.right <= boxes.map.left + 0.5, `the dock (right edge ${boxes.dock.right}) runs over the map (left edge ${boxes.map.left})`);
    for (const c of boxes.controls)
      assert.ok(
        c.left >= boxes.map.left - 0.5 && c.right <= boxes.map.right + 0.5,
        `a map control (${c.left}–${c.right}) outside the map (${boxes.map.left}–${boxes.map.right})`,
      );
    assert.ok(boxes.filters.length > 0, 'no filter boxes in the search form');
    assert.ok(
      boxes.filters.every((over) => over <= 0.5),
      `filter boxes run past the page's right edge by ${boxes.filters.map(Math.round).join(', ')} px`,
    );
    await screenshot(page, 'imagery-dock-1280x800');
    assert.deepEqual(
      webviewConsole.filter((m) => /Content Security Policy|Uncaught|TypeError|ReferenceError/.test(m)),
      [],
    );
  });
});
