/**
 * Renders the map and STAC item panels with records from the sandbox (through the real client
 * and the same record → feature code the extension uses) and saves screenshots for the docs.
 *
 *   node out/test/webview/screenshots.js [outDir=docs/images]
 */
import { join } from 'node:path';
import { EoClient } from '../../src/api/client';
import { startSandbox } from '../../src/sandbox';
import { aoiFeature, archiveItemFeature, archiveSearchBody } from '../../src/panels/mapData';
import type { SearchParams } from '../../src/panels/protocol';
import { closeBrowser, openWebview, ROOT } from './harness';
import { moveMap } from './moveMap';

async function main(): Promise<void> {
  const out = process.argv[2] ?? join(ROOT, 'docs', 'images');
  const sb = await startSandbox({ port: 0 });
  const client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'eo-imagery-screenshots' });
  try {
    const aois = (await client.aois.listPage({ limit: 50 })).items;
    const aoi = aois[0];
    const [w, s] = [aoi.centroid[0] - 1.5, aoi.centroid[1] - 1];
    const ring: [number, number][] = [
      [w, s],
      [w + 3, s],
      [w + 3, s + 2],
      [w, s + 2],
      [w, s],
    ];
    const params: SearchParams = {
      kind: 'archive',
      ring,
      shape: 'rectangle',
      collections: [],
      satellites: [],
      from: '',
      to: '',
      sort: 'datetime-desc',
      limit: 20,
      maxCloud: 60,
    };
    const page = await client.archives.search(archiveSearchBody(params));
    const collections = await client.archives.collections();
    const h = await openWebview('map', {
      viewport: { width: 1280, height: 760 },
      onRequest: (r) => {
        const req = r as { method: string };
        if (req.method === 'searchOptions')
          return { collections: collections.map((c) => ({ id: c.id, title: c.title })), satellites: [], projects: [], errors: {} };
        if (req.method === 'search')
          return {
            searchId: 1,
            features: page.features.map(archiveItemFeature),
            loaded: page.features.length,
            hasMore: page.links.some((l) => l.rel === 'next'),
          };
        throw new Error('not in the screenshot');
      },
    });
    await h.waitFor((m) => (m as { type?: string }).type === 'ready');
    await h.send({ type: 'init', basemaps: [] });
    await h.send({ type: 'layer', layer: 'aois', mode: 'replace', fit: false, features: aois.map(aoiFeature) });
    await h.page.evaluate((r) => (window as unknown as { eoMap: { onDrawn(s: unknown): void } }).eoMap.onDrawn({ shape: 'rectangle', ring: r }), ring);
    await h.page.click('#search');
    await h.page.waitForSelector('#results li');
    await h.page.evaluate(() => (window as unknown as { eoMap: { fit(ids: undefined, kind: string): void } }).eoMap.fit(undefined, 'results'));
    const second = await h.page.$$('#results li');
    await second[Math.min(2, second.length - 1)].click();
    await h.page.waitForTimeout(300);
    await h.page.screenshot({ path: join(out, 'map-search.png') });
    // the whole world with every AOI
    await h.page.click('#tool-panel');
    await moveMap(h.page, { setView: [25, 20], zoom: 3 });
    await h.page.waitForTimeout(300);
    await h.page.screenshot({ path: join(out, 'map-aois.png') });
    await h.close();

    const item = await client.archives.item(page.features[0].collection, page.features[0].id);
    const st = await openWebview('stacItem', { viewport: { width: 1280, height: 900 } });
    await st.waitFor((m) => (m as { type?: string }).type === 'ready');
    await st.send({ type: 'item', item, stacUrl: `${sb.url}/v0/archives/collections/${item.collection}/items/${item.id}` });
    await st.page.waitForSelector('#footprint .leaflet-overlay-pane canvas');
    await st.page.waitForTimeout(300);
    await st.page.screenshot({ path: join(out, 'stac-item.png') });
    await st.close();
    console.log(`screenshots in ${out}`);
  } finally {
    await client.close();
    await sb.close();
    await closeBrowser();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
