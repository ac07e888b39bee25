import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MapRequest, SearchPage, SearchParams } from '../../src/panels/protocol';
import { closeBrowser, isType, openWebview, type Harness } from './harness';
import { squareFeature } from './fixtures';
import { moveMap } from './moveMap';
import { waitUntil } from '../support/waitUntil';

type MapWin = {
  eoMap: {
    map: {
      latLngToContainerPoint(ll: [number, number]): { x: number; y: number };
      getBounds(): { getWest(): number; getEast(): number };
      getCenter(): { lat: number; lng: number };
    };
    layers: Record<
      string,
      {
        size: number;
        selected?: string;
        getBounds(id?: string): { getWest(): number; getEast(): number; getNorth(): number; getSouth(): number } | undefined;
        lastDraw: { drawn: number; world: boolean };
      }
    >;
    selected?: { layer: string; id: string };
    onDrawn(s: { shape: string; ring: [number, number][] }): void;
    drawnRing?: unknown;
    fit(): void;
  };
  __state?: Record<string, unknown>;
};

async function clickAt(h: Harness, lon: number, lat: number): Promise<void> {
  const p = await h.page.evaluate(
    ([x, y]) => {
      const w = window as unknown as MapWin;
      const pt = w.eoMap.map.latLngToContainerPoint([y, x]);
      const r = document.getElementById('map')!.getBoundingClientRect();
      return { x: r.left + pt.x, y: r.top + pt.y };
    },
    [lon, lat],
  );
  await h.page.mouse.click(p.x, p.y);
}

/** One arrow key on the focused map, then the end of the pan it starts (Leaflet drops a key pressed mid-pan). */
async function arrow(h: Harness, key: string): Promise<void> {
  const before = await h.page.evaluate(() => JSON.stringify((window as unknown as MapWin).eoMap.map.getCenter()));
  await h.page.keyboard.press(key);
  await waitUntil(h.page, (b) => JSON.stringify((window as unknown as MapWin).eoMap.map.getCenter()) !== b, before);
  await h.page.waitForTimeout(350);
}

/** Whether a footprint canvas (outlines, or fills in their own pane under the imagery) has paint at lon, lat. */
function paintedAt(h: Harness, lon: number, lat: number): Promise<boolean> {
  return h.page.evaluate(
    ([x, y]) => {
      const w = window as unknown as MapWin;
      const canvases = document.querySelectorAll<HTMLCanvasElement>(
        '.leaflet-overlay-pane canvas.eo-footprints, .leaflet-eo-fills-pane canvas.eo-footprint-fills',
      );
      const pt = w.eoMap.map.latLngToContainerPoint([y, x]);
      const mr = document.getElementById('map')!.getBoundingClientRect();
      return Array.from(canvases).some((c) => {
        const cr = c.getBoundingClientRect();
        const dpr = c.width / cr.width;
        const px = c.getContext('2d')!.getImageData(Math.round((pt.x + mr.left - cr.left) * dpr), Math.round((pt.y + mr.top - cr.top) * dpr), 1, 1).data;
        return px[3] > 0;
      });
    },
    [lon, lat],
  );
}

/** A 3° triangle drawn at 0° 0° and the imagery search chosen; with `satellites`, once that many are offered. */
async function imageryOverTriangle(h: Harness, satellites?: number): Promise<void> {
  await h.page.evaluate(() =>
    (window as unknown as MapWin).eoMap.onDrawn({
      shape: 'polygon',
      ring: [
        [0, 0],
        [3, 0],
        [3, 3],
        [0, 0],
      ],
    }),
  );
  await h.page.check('#kind-imagery');
  if (satellites !== undefined) {
    await waitUntil(h.page, (n) => (document.getElementById('satellites') as HTMLSelectElement).options.length === n, satellites);
  }
}

async function ready(h: Harness): Promise<void> {
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
}

const options = {
  collections: [{ id: 'c1', title: 'Collection one' }],
  satellites: [
    { id: 's1', name: 'Sat one', collection_id: 'c1', queryables: ['eo:cloud_cover', 'view:off_nadir', 'gsd'] },
    { id: 's2', name: 'Sat two', collection_id: 'c2', queryables: ['eo:cloud_cover', 'gsd'] },
  ],
  projects: [{ id: 'p1', name: 'Project one' }],
  errors: {},
};

after(() => closeBrowser());

describe('map webview', () => {
  it('draws layers, fits, and opens the detail of a clicked footprint', async () => {
    const h = await openWebview('map', { onRequest: () => options });
    try {
      await ready(h);
      await h.send({
        type: 'layer',
        layer: 'aois',
        mode: 'replace',
        fit: false,
        features: [{ ...squareFeature('a1', 10, 40, 2, 'aois'), centroid: [11, 41], ref: { kind: 'aoi', id: 'a1' } }],
        sources: [{ kind: 'aoi', id: 'a1' }],
      });
      await h.send({
        type: 'layer',
        layer: 'archiveItems',
        mode: 'replace',
        fit: true,
        features: [squareFeature('i1', 10.5, 40.5, 0.5), squareFeature('i2', 30, 10, 1)],
      });
      const sizes = await h.page.evaluate(() => {
        const w = window as unknown as MapWin;
        return { aois: w.eoMap.layers.aois.size, items: w.eoMap.layers.archiveItems.size };
      });
      assert.deepEqual(sizes, { aois: 1, items: 2 });
      // fit covered both archive items
      const b = await h.page.evaluate(() => {
        const m = (window as unknown as MapWin).eoMap.map.getBounds();
        return [m.getWest(), m.getEast()];
      });
      assert.ok(b[0] <= 10.5 && b[1] >= 31, `view ${b} covers the items`);
      // the layer control lists every layer by its static title
      const names = await h.page.$$eval('.leaflet-control-layers-overlays label', (ls) => ls.map((l) => l.textContent?.trim()));
      assert.deepEqual(names, [
        'AOIs',
        'Asset footprints',
        'Order items',
        'Catalog (fulfilled)',
        'Archive items',
        'Insight outputs (vector)',
        'Search results',
      ]);
      // the small item inside the AOI wins the click (smallest first, upper layer first)
      await clickAt(h, 10.75, 40.75);
      const sel = await h.page.evaluate(() => (window as unknown as MapWin).eoMap.selected);
      assert.deepEqual(sel, { layer: 'archiveItems', id: 'i1' });
      await h.page.click('.eo-popup button.open-detail');
      const open = await h.waitFor<{ ref: unknown }>(isType('open'));
      assert.deepEqual(open.ref, { kind: 'archiveItem', collection: 'c1', id: 'i1' });
      // a click on the AOI outside the item selects the AOI
      await clickAt(h, 11.7, 40.2);
      assert.deepEqual(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.selected), { layer: 'aois', id: 'a1' });
      // state keeps the viewport and where the AOI came from
      const state = await h.page.evaluate(() => (window as unknown as MapWin).__state);
      assert.ok(state && typeof state.zoom === 'number' && Array.isArray(state.center));
      assert.deepEqual((state.sources as Record<string, unknown>).aois, [{ kind: 'aoi', id: 'a1' }]);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('answers the test-only pixel read-back, and puts its app on window, only when the extension runs for tests', async () => {
    const production = await openWebview('map', { userPage: true });
    try {
      await ready(production);
      assert.equal(await production.page.evaluate(() => 'eoMap' in window), false, "a user's page keeps its app to itself");
      await production.send({ type: 'imageryPixels', requestId: 1, points: [[10, 40]] });
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(production.posted.filter(isType('imageryPixels')).length, 0, 'a normal page does not answer');
      const loaded = await production.page.evaluate(() => !!document.querySelector('script[src$="imagery.js"]'));
      assert.equal(loaded, false, 'nor loads the imagery code for it');
    } finally {
      await production.close();
    }
    const testing = await openWebview('map');
    try {
      await testing.waitFor(isType('ready'));
      assert.equal(await testing.page.evaluate(() => 'eoMap' in window), true);
      await testing.send({ type: 'init', basemaps: [], testing: true });
      await testing.send({ type: 'imageryPixels', requestId: 2, points: [[10, 40]] });
      const answer = await testing.waitFor<unknown>(isType('imageryPixels'), 20_000);
      assert.deepEqual(answer, { type: 'imageryPixels', requestId: 2, pixels: [[0, 0, 0, 0]] });
    } finally {
      await testing.close();
    }
  });

  it('answers Save View at once when it never showed imagery, and loads no imagery code for it or for a cancel', async () => {
    const h = await openWebview('map', { userPage: true });
    try {
      await ready(h);
      await h.send({ type: 'clipInfo', requestId: 1 });
      // before, the extension's question waited for the imagery code, which a map without imagery never loaded
      const reply = await h.waitFor<unknown>(isType('clipReply'), 2000);
      assert.deepEqual(reply, { type: 'clipReply', requestId: 1, ok: true, result: { layers: [] } });
      for (const type of ['clipCancel', 'seriesCancel', 'timelapseCancel']) await h.send({ type, requestId: 2 });
      await h.send({ type: 'timelapseSource', requestId: 3 });
      assert.deepEqual(await h.waitFor<unknown>(isType('timelapseReply'), 2000), { type: 'timelapseReply', requestId: 3, ok: true, result: {} });
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(await h.page.evaluate(() => !!document.querySelector('script[src$="imagery.js"]')), false);
    } finally {
      await h.close();
    }
  });

  it('draws an antimeridian footprint as one small shape, and a west>east bbox too', async () => {
    const h = await openWebview('map');
    try {
      await ready(h);
      const fiji = {
        id: 'fiji',
        label: 'Fiji',
        ref: { kind: 'archiveItem', collection: 'c', id: 'fiji' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [178, -19],
              [-179, -19],
              [-179, -16],
              [178, -16],
              [178, -19],
            ],
          ],
        },
      };
      const split = {
        id: 'split',
        label: 'Split',
        ref: { kind: 'archiveItem', collection: 'c', id: 'split' },
        geometry: {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [175, 10],
                [180, 10],
                [180, 12],
                [175, 12],
                [175, 10],
              ],
            ],
            [
              [
                [-180, 10],
                [-176, 10],
                [-176, 12],
                [-180, 12],
                [-180, 10],
              ],
            ],
          ],
        },
      };
      await h.send({ type: 'layer', layer: 'archiveItems', mode: 'replace', fit: true, features: [fiji, split] });
      const r = await h.page.evaluate(() => {
        const l = (window as unknown as MapWin).eoMap.layers.archiveItems;
        const f = l.getBounds('fiji')!;
        const s = l.getBounds('split')!;
        return { fiji: [f.getWest(), f.getEast()], split: [s.getWest(), s.getEast()] };
      });
      assert.deepEqual(r.fiji, [178, 181]);
      assert.deepEqual(r.split, [175, 184]);
      // the view fitted to a few degrees, not the whole world
      const view = await h.page.evaluate(() => {
        const m = (window as unknown as MapWin).eoMap.map.getBounds();
        return m.getEast() - m.getWest();
      });
      assert.ok(view < 60, `view spans ${view}°`);
      // the pixel just east of the dateline (inside Fiji) is painted; a pixel at lon 0 far away is not
      const painted = (lon: number, lat: number) => paintedAt(h, lon, lat);
      // (the view is centred on the dateline, so east of it reads as 180.5 on this world copy)
      assert.equal(await painted(180.5, -17.5), true);
      assert.equal(await painted(179, -17.5), true);
      assert.equal(await painted(170, -17.5), false);
      // clicking across the dateline picks the same shape
      await clickAt(h, 180.5, -17.5);
      assert.deepEqual(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.selected), { layer: 'archiveItems', id: 'fiji' });
    } finally {
      await h.close();
    }
  });

  it('paints thousands of footprints at a low zoom once, and pans, selects and crosses the dateline as before', async () => {
    const h = await openWebview('map');
    try {
      await ready(h);
      // 6,000 squares of 0.1° on a grid between 60° S and 60° N (dots at zoom 2), and one large
      // footprint across the dateline
      const features: unknown[] = [];
      for (let i = 0; i < 6000; i++) {
        const lon = -178 + (i % 100) * 3.5;
        const lat = -59 + Math.floor(i / 100) * 2;
        features.push(squareFeature(`s${i}`, lon, lat, 0.1));
      }
      const ring = [
        [170, 30],
        [-170, 30],
        [-170, 45],
        [170, 45],
        [170, 30],
      ];
      features.push({ id: 'big', label: 'Big', ref: { kind: 'archiveItem', collection: 'c', id: 'big' }, geometry: { type: 'Polygon', coordinates: [ring] } });
      await h.send({ type: 'layer', layer: 'archiveItems', mode: 'replace', fit: false, features });
      await moveMap(h.page, { setView: [10, 150], zoom: 2, options: { animate: false } });
      await h.page.waitForTimeout(100);
      const check = async (when: string) => {
        assert.equal(await paintedAt(h, 151.02, 1.08), true, `a small footprint (151° E 1° N) ${when}`);
        assert.equal(await paintedAt(h, 175, 37), true, `the large one west of the dateline ${when}`);
        assert.equal(await paintedAt(h, 185, 37), true, `the large one east of the dateline ${when}`);
        assert.equal(await paintedAt(h, 150, 70), false, `nothing north of every footprint ${when}`);
      };
      await check('at first');
      const fromWorldImage = () => h.page.evaluate(() => (window as unknown as MapWin).eoMap.layers.archiveItems.lastDraw.world);
      assert.equal(await fromWorldImage(), true, 'painted once into the world image at zoom 2');
      await moveMap(h.page, { panBy: [-300, 120], options: { animate: false } });
      await h.page.waitForTimeout(100);
      await check('after a pan');
      // selecting the large one draws it in the selection's colour, over the rest
      await clickAt(h, 180, 37);
      assert.deepEqual(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.selected), { layer: 'archiveItems', id: 'big' });
      await check('with the large one selected');
      assert.equal(await fromWorldImage(), true, 'the world image painted again with the selection');
      // closer in, the world would be too large an image: the shapes in view are painted
      await moveMap(h.page, { setView: [37, 180], zoom: 5, options: { animate: false } });
      await h.page.waitForTimeout(100);
      assert.equal(await fromWorldImage(), false);
      assert.equal(await paintedAt(h, 179, 37), true);
      assert.equal(await paintedAt(h, 181, 37), true);
    } finally {
      await h.close();
    }
  });

  it('a pan inside the drawn margin repaints neither the footprints nor the offline outlines; a longer one does', async () => {
    const h = await openWebview('map', { viewport: { width: 1280, height: 800 } });
    try {
      await ready(h);
      // 6,000 squares of 0.1° (the world image at zoom 2), as in the test above
      const features: unknown[] = [];
      for (let i = 0; i < 6000; i++) features.push(squareFeature(`s${i}`, -178 + (i % 100) * 3.5, -59 + Math.floor(i / 100) * 2, 0.1));
      await h.send({ type: 'layer', layer: 'archiveItems', mode: 'replace', fit: false, features });
      type Panned = MapWin & { __lastDraw?: unknown };
      await moveMap(h.page, { setView: [10, 0], zoom: 2, options: { animate: false } });
      await h.page.waitForTimeout(100);
      /** What each layer drew last: the footprints' redraw record and the outlines' SVG paths. */
      const drawing = () =>
        h.page.evaluate(() => {
          const w = window as unknown as Panned;
          const paths = Array.from(document.querySelectorAll('.leaflet-eoOffline-pane path')).map((p) => p.getAttribute('d') ?? '');
          // Leaflet's SVG renderer sets the view box on every redraw, though paths inside it come out the same
          const viewBox = document.querySelector('.leaflet-eoOffline-pane svg')?.getAttribute('viewBox');
          const same = w.__lastDraw === w.eoMap.layers.archiveItems.lastDraw;
          w.__lastDraw = w.eoMap.layers.archiveItems.lastDraw;
          return { paths, viewBox, footprintsSame: same };
        });
      /** Whether the outlines' paths drawn before are drawn as they were (a pan may add a world copy's paths after them). */
      const keeps = (before: string[], after: string[]) => before.every((d, i) => after[i] === d);
      const panBy = async (p: [number, number]) => {
        await moveMap(h.page, { panBy: p, options: { animate: false } });
        await h.page.waitForTimeout(100);
      };
      const first = await drawing();
      assert.ok(first.paths.length > 0, 'the offline outlines are drawn');
      // a quarter of the map's width and height beyond each edge is drawn (the side panel is open:
      // the map is about 960 px wide), half of them for the outlines: 200 × 120 px stays inside
      await panBy([200, 120]);
      const short = await drawing();
      assert.equal(short.footprintsSame, true, 'the footprints were not redrawn by a short pan');
      assert.equal(short.viewBox, first.viewBox, 'the outlines were not redrawn by a short pan');
      assert.equal(keeps(first.paths, short.paths), true, 'the outlines drawn before are as they were');
      assert.equal(await paintedAt(h, -3, 1.1), true, 'a footprint in view is painted where it is after the short pan');
      assert.equal(await paintedAt(h, -1.5, 1.1), false, 'nothing between footprints after the short pan');
      // 700 px more to the east leaves the footprints' margin and the outlines' (half a view)
      await panBy([700, 0]);
      const long = await drawing();
      assert.equal(long.footprintsSame, false, 'the footprints were redrawn by a long pan');
      assert.notEqual(long.viewBox, first.viewBox, 'the outlines were redrawn by a long pan');
      // the view is now east of 180°: the square at 45° W shows in the next world copy, at 315°
      assert.equal(await paintedAt(h, 315, 1.1), true, 'a footprint in view is painted where it is after the long pan');
    } finally {
      await h.close();
    }
  });

  it('footprints that overlap tint the map once: 25 results over one place look like one', async () => {
    const h = await openWebview('map');
    try {
      await ready(h);
      // 25 results over one place (a search's usual answer), one result alone beside them
      const stacked = Array.from({ length: 25 }, (_, i) => squareFeature(`s${i}`, 0, 0, 4));
      await h.send({ type: 'layer', layer: 'results', mode: 'replace', fit: true, features: [...stacked, squareFeature('alone', 6, 0, 4)] });
      // what a person sees of the fills: each pixel's alpha on the fills canvas times the canvas's own opacity
      const seen = (lon: number, lat: number) =>
        h.page.evaluate(
          ([x, y]) => {
            const w = window as unknown as MapWin;
            const c = document.querySelector<HTMLCanvasElement>('.leaflet-eo-fills-pane canvas.eo-footprint-fills')!;
            const pt = w.eoMap.map.latLngToContainerPoint([y, x]);
            const mr = document.getElementById('map')!.getBoundingClientRect();
            const cr = c.getBoundingClientRect();
            const dpr = c.width / cr.width;
            const px = c.getContext('2d')!.getImageData(Math.round((pt.x + mr.left - cr.left) * dpr), Math.round((pt.y + mr.top - cr.top) * dpr), 1, 1).data;
            return { rgb: [px[0], px[1], px[2]], alpha: (px[3] / 255) * Number(getComputedStyle(c).opacity) };
          },
          [lon, lat],
        );
      const under25 = await seen(2, 2);
      const underOne = await seen(8, 2);
      assert.ok(underOne.alpha > 0.02 && underOne.alpha < 0.3, `one result's tint: ${underOne.alpha}`);
      assert.deepEqual(under25, underOne, 'the 25 stacked results tint the map as one does');
    } finally {
      await h.close();
    }
  });

  it('searches here with paging, count and two-way selection sync', async () => {
    const requests: MapRequest[] = [];
    const pages: SearchPage[] = [
      { searchId: 7, features: [squareFeature('r1', 0, 0), squareFeature('r2', 5, 5)], loaded: 2, matched: 5, hasMore: true },
      { searchId: 7, features: [squareFeature('r3', 10, 10), squareFeature('r4', 15, 15)], loaded: 4, matched: 5, hasMore: true },
      { searchId: 7, features: [squareFeature('r5', 20, 0)], loaded: 5, matched: 5, hasMore: false },
    ];
    let next = 0;
    const h = await openWebview('map', {
      onRequest: (r) => {
        const req = r as MapRequest;
        requests.push(req);
        if (req.method === 'searchOptions') return options;
        if (req.method === 'search' || req.method === 'searchMore') return pages[next++];
        throw new Error('unexpected');
      },
    });
    try {
      await ready(h);
      assert.equal(await h.page.isDisabled('#search'), true);
      // draw a rectangle with the mouse
      await h.page.click('#tool-rect');
      const box = await h.page.locator('#map').boundingBox();
      assert.ok(box);
      await h.page.mouse.move(box.x + 200, box.y + 200);
      await h.page.mouse.down();
      await h.page.mouse.move(box.x + 400, box.y + 350, { steps: 5 });
      await h.page.mouse.up();
      assert.match((await h.page.textContent('#shape-info')) ?? '', /Rectangle drawn · [\d,.]+ km²/);
      await h.page.fill('#max-cloud', '20');
      await h.page.selectOption('#collections', 'c1');
      await h.page.click('#search');
      await h.page.waitForSelector('#results li:nth-child(2)');
      assert.equal(await h.page.textContent('#status'), '2 of 5 results');
      const search = requests.find((r) => r.method === 'search') as { params: SearchParams };
      assert.equal(search.params.kind, 'archive');
      assert.equal(search.params.shape, 'rectangle');
      assert.deepEqual(search.params.collections, ['c1']);
      assert.equal(search.params.maxCloud, 20);
      assert.equal(search.params.ring.length, 5);
      assert.deepEqual(search.params.ring[0], search.params.ring[4]);
      await h.page.click('#load-more');
      await h.page.waitForSelector('#results li:nth-child(4)');
      assert.equal(await h.page.textContent('#status'), '4 of 5 results');
      assert.deepEqual(
        requests.filter((r) => r.method === 'searchMore'),
        [{ method: 'searchMore', searchId: 7 }],
      );
      await h.page.click('#load-more');
      await h.page.waitForSelector('#results li:nth-child(5)');
      assert.equal(await h.page.textContent('#status'), '5 of 5 results (all loaded)');
      assert.equal(await h.page.isHidden('#load-more'), true);
      assert.equal(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.layers.results.size), 5);
      // list → map
      await h.page.click('#results li[data-id="r3"]');
      assert.equal(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.layers.results.selected), 'r3');
      assert.equal(await h.page.getAttribute('#results li[data-id="r3"]', 'aria-selected'), 'true');
      // map → list
      await clickAt(h, 20.5, 0.5);
      assert.equal(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.layers.results.selected), 'r5');
      assert.equal(await h.page.getAttribute('#results li[data-id="r5"]', 'aria-selected'), 'true');
      assert.equal(await h.page.getAttribute('#results li[data-id="r3"]', 'aria-selected'), 'false');
      // a new search starts over
      next = 0;
      await h.page.click('#search');
      await waitUntil(h.page, () => document.querySelectorAll('#results li').length === 2);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('a result without a footprint is listed but not drawn, and results that could not be read are counted with the reasons in the hover', async () => {
    const page: SearchPage = {
      searchId: 3,
      features: [squareFeature('r1', 0, 0), { ...squareFeature('r2', 5, 5), geometry: null }],
      loaded: 2,
      hasMore: false,
      noFootprint: 1,
      unreadable: { count: 2, reasons: ['b: features[1].properties: expected object, got null', 'features[4].id: expected string, got number'] },
    };
    const h = await openWebview('map', {
      onRequest: (r) => {
        const req = r as MapRequest;
        if (req.method === 'searchOptions') return options;
        if (req.method === 'search') return page;
        throw new Error('unexpected');
      },
    });
    try {
      await ready(h);
      await h.page.click('#tool-rect');
      const box = await h.page.locator('#map').boundingBox();
      assert.ok(box);
      await h.page.mouse.move(box.x + 200, box.y + 200);
      await h.page.mouse.down();
      await h.page.mouse.move(box.x + 400, box.y + 350, { steps: 5 });
      await h.page.mouse.up();
      await h.page.click('#search');
      await h.page.waitForSelector('#results li:nth-child(2)');
      assert.equal(await h.page.textContent('#status'), '2 results (all loaded) · 1 without a footprint (listed, not drawn) · 2 results could not be read');
      const hover = (await h.page.getAttribute('#status', 'title')) ?? '';
      assert.match(hover, /features\[1\]\.properties: expected object, got null/);
      assert.match(hover, /features\[4\]\.id: expected string, got number/);
      assert.equal(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.layers.results.size), 1, 'only the result with a footprint is drawn');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('dates are ISO in every locale, default to where the chosen collections have data, and an empty result says how to widen', async () => {
    const requests: SearchParams[] = [];
    const withExtents = {
      ...options,
      collections: [
        { id: 'old', title: 'Old archive', interval: ['2019-01-01T00:00:00Z', '2021-06-30T12:00:00Z'] },
        { id: 'tiny', title: 'Short campaign', interval: ['2022-02-01T00:00:00Z', '2022-03-15T00:00:00Z'] },
      ],
    };
    const h = await openWebview('map', {
      // a US-English browser shows `type="date"` as mm/dd/yyyy: the fields must not follow it
      locale: 'en-US',
      onRequest: (r) => {
        const req = r as MapRequest;
        if (req.method === 'searchOptions') return withExtents;
        if (req.method === 'search') {
          requests.push(req.params);
          return { searchId: 1, features: [], loaded: 0, hasMore: false };
        }
        throw new Error('unexpected');
      },
    });
    try {
      await ready(h);
      assert.equal(await h.page.getAttribute('#from', 'type'), 'text');
      assert.equal(await h.page.getAttribute('#to', 'placeholder'), 'YYYY-MM-DD');
      // none chosen = all: from the first data to where the data ends (newest first, the first
      // page is the latest scenes, so a first search finds something)
      await waitUntil(h.page, () => (document.getElementById('to') as HTMLInputElement).value === '2022-03-15');
      assert.equal(await h.page.inputValue('#from'), '2019-01-01');
      // one collection: its own data
      await h.page.selectOption('#collections', 'old');
      assert.equal(await h.page.inputValue('#from'), '2019-01-01');
      assert.equal(await h.page.inputValue('#to'), '2021-06-30');
      await h.page.selectOption('#collections', 'tiny');
      assert.equal(await h.page.inputValue('#from'), '2022-02-01');
      assert.equal(await h.page.inputValue('#to'), '2022-03-15');
      await h.page.evaluate(() =>
        (window as unknown as MapWin).eoMap.onDrawn({
          shape: 'rectangle',
          ring: [
            [0, 0],
            [9, 0],
            [9, 9],
            [0, 9],
            [0, 0],
          ],
        }),
      );
      // a locale-style date is refused with the expected form, nothing is sent
      await h.page.fill('#from', '02/01/2022');
      await h.page.click('#search');
      assert.match((await h.page.textContent('#status')) ?? '', /^"From" is not a date in the form YYYY-MM-DD \(for example \d{4}-\d{2}-\d{2}\)\.$/);
      await h.page.fill('#from', '2022-02-30');
      await h.page.click('#search');
      assert.match((await h.page.textContent('#status')) ?? '', /"From" is not a date/);
      // dates the person typed stay when the collections change
      await h.page.fill('#from', '2022-02-10');
      await h.page.selectOption('#collections', 'old');
      assert.equal(await h.page.inputValue('#from'), '2022-02-10');
      assert.equal(await h.page.inputValue('#to'), '2022-03-15');
      await h.page.click('#search');
      await waitUntil(h.page, () => /^No results/.test(document.getElementById('status')!.textContent ?? ''));
      assert.equal(requests[0].from, '2022-02-10');
      assert.equal(requests[0].to, '2022-03-15');
      assert.equal(
        await h.page.textContent('#status'),
        'No results between 2022-02-10 and 2022-03-15 in this area. Widen the dates (the chosen collections have data from 2019-01-01 to 2021-06-30), raise Max cloud %, choose other collections or draw a larger area.',
      );
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('imagery search needs a satellite, and a failed search says why', async () => {
    const h = await openWebview('map', {
      onRequest: (r) => {
        const req = r as MapRequest;
        if (req.method === 'searchOptions') return { ...options, satellites: [] };
        throw Object.assign(new Error('next_token is not valid for this query'), { status: 400 });
      },
    });
    try {
      await ready(h);
      await imageryOverTriangle(h);
      await h.page.click('#search');
      assert.equal(await h.page.textContent('#status'), 'Pick at least one satellite.');
    } finally {
      await h.close();
    }
    const h2 = await openWebview('map', {
      onRequest: (r) => {
        if ((r as MapRequest).method === 'searchOptions') return options;
        throw Object.assign(new Error('bad datetime'), { status: 400 });
      },
    });
    try {
      await ready(h2);
      await imageryOverTriangle(h2, 2);
      await h2.page.click('#search');
      await waitUntil(h2.page, () => /Search failed/.test(document.getElementById('status')!.textContent ?? ''));
      assert.equal(await h2.page.textContent('#status'), 'Search failed: bad datetime');
    } finally {
      await h2.close();
    }
  });

  it("offers the chosen satellite's queryables with range and unit, refuses a value out of range in words, and sends the rest as filters", async () => {
    const searches: SearchParams[] = [];
    const h = await openWebview('map', {
      onRequest: (r) => {
        const req = r as MapRequest;
        if (req.method === 'searchOptions') return options;
        if (req.method === 'search') searches.push(req.params);
        return { searchId: 1, features: [], loaded: 0, hasMore: false } satisfies SearchPage;
      },
    });
    const rows = (): Promise<string[]> =>
      h.page.$$eval('#filters .filter-row', (els) => els.map((e) => (e as HTMLElement).querySelector('.filter-label')!.textContent ?? ''));
    try {
      await ready(h);
      await imageryOverTriangle(h, 2);
      // Sat one (chosen first) lists off-nadir and gsd besides cloud cover, which has its own control.
      assert.deepEqual(await rows(), ['Off-nadir angle (0–90 °)', 'Ground sample distance (0–10000 m)']);
      await h.page.getByLabel('Off-nadir angle, highest (0–90 °)').fill('120');
      await h.page.click('#search');
      assert.equal(await h.page.textContent('#status'), 'Off-nadir angle is from 0–90 °; 120 ° is outside it.');
      assert.equal(searches.length, 0, 'nothing sent');
      await h.page.getByLabel('Off-nadir angle, highest (0–90 °)').fill('10');
      await h.page.getByLabel('Ground sample distance, lowest (0–10000 m)').fill('2');
      if (process.env.EO_SHOT) await h.page.locator('.search').screenshot({ path: process.env.EO_SHOT });
      await h.page.click('#search');
      await waitUntil(h.page, () => !/Searching/.test(document.getElementById('status')!.textContent ?? ''));
      assert.deepEqual(searches.at(-1)?.filters, [
        { id: 'view:off_nadir', max: 10 },
        { id: 'gsd', min: 2 },
      ]);
      // Sat two lists no off-nadir: its row goes, the typed gsd stays.
      await h.page.selectOption('#satellites', 's2');
      assert.deepEqual(await rows(), ['Ground sample distance (0–10000 m)']);
      assert.equal(await h.page.getByLabel('Ground sample distance, lowest (0–10000 m)').inputValue(), '2');
      // The archive filters on the items' view properties.
      await h.page.check('#kind-archive');
      assert.deepEqual(await rows(), ['Off-nadir angle (0–90 °)', 'Sun elevation (-90–90 °)', 'Ground sample distance (0–10000 m)']);
    } finally {
      await h.close();
    }
  });

  it('creates an AOI from the drawn shape: area first, server errors in place', async () => {
    let attempts = 0;
    const h = await openWebview('map', {
      onRequest: (r) => {
        const req = r as MapRequest;
        if (req.method === 'searchOptions') return options;
        if (req.method === 'createAoi') {
          if (attempts++ === 0) throw Object.assign(new Error('An AOI named "Farm" already exists in this project.'), { status: 409 });
          return { ...squareFeature('new-aoi', 1, 1, 1), label: req.params.name, ref: { kind: 'aoi', id: 'new-aoi' } };
        }
        throw new Error('unexpected');
      },
    });
    try {
      await ready(h);
      // one degree square at the equator: about 12,364 km²
      await h.page.evaluate(() =>
        (window as unknown as MapWin).eoMap.onDrawn({
          shape: 'rectangle',
          ring: [
            [1, 0],
            [2, 0],
            [2, 1],
            [1, 1],
            [1, 0],
          ],
        }),
      );
      assert.equal(await h.page.locator('.leaflet-overlay-pane path[stroke-dasharray]').count(), 1, 'the drawn outline is on the map');
      await h.page.click('#create-aoi');
      assert.match((await h.page.textContent('#aoi-area')) ?? '', /Geodesic area: 12,3\d\d km²/);
      await h.page.click('#aoi-submit');
      assert.equal(await h.page.textContent('#aoi-error'), 'Give the AOI a name.');
      await h.page.fill('#aoi-name', 'Farm');
      await waitUntil(h.page, () => (document.getElementById('aoi-project') as HTMLSelectElement).options.length === 1);
      await h.page.click('#aoi-submit');
      await waitUntil(h.page, () => /409/.test(document.getElementById('aoi-error')!.textContent ?? ''));
      assert.equal(await h.page.textContent('#aoi-error'), '409: An AOI named "Farm" already exists in this project.');
      await h.page.click('#aoi-submit');
      await waitUntil(h.page, () => (window as unknown as MapWin).eoMap.layers.aois.size === 1);
      assert.equal(await h.page.isHidden('#aoi-form'), true);
      // the drawing became the AOI: it is cleared, Create AOI and Search are off, the new AOI is shown and selected
      assert.equal(await h.page.isDisabled('#create-aoi'), true, 'Create AOI stays active after the AOI was created');
      assert.equal(await h.page.isDisabled('#search'), true);
      assert.equal(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.drawnRing), undefined);
      assert.equal(await h.page.locator('.leaflet-overlay-pane path[stroke-dasharray]').count(), 0, 'the drawn outline is still on the map');
      assert.equal(await h.page.evaluate(() => (window as unknown as MapWin).eoMap.layers.aois.selected), 'new-aoi');
      assert.match((await h.page.textContent('#shape-info')) ?? '', /AOI "Farm" created and shown on the map/);
      // a shape across the dateline is refused with the reason
      await h.page.evaluate(() =>
        (window as unknown as MapWin).eoMap.onDrawn({
          shape: 'rectangle',
          ring: [
            [178, 0],
            [182, 0],
            [182, 1],
            [178, 1],
            [178, 0],
          ],
        }),
      );
      await h.page.click('#create-aoi');
      assert.match((await h.page.textContent('#aoi-form')) ?? '', /crosses the antimeridian/);
    } finally {
      await h.close();
    }
  });

  it('"Order…" hands the selected result row to the extension, and only then', async () => {
    const h = await openWebview('map', {
      onRequest: (r) => {
        const req = r as MapRequest;
        if (req.method === 'searchOptions') return options;
        if (req.method === 'search') return { searchId: 1, features: [squareFeature('r1', 0, 0), squareFeature('r2', 5, 5)], loaded: 2, hasMore: false };
        throw new Error('unexpected');
      },
    });
    try {
      await ready(h);
      assert.equal(await h.page.isHidden('#order-results'), true, 'no results, no Order button');
      await h.page.evaluate(() =>
        (window as unknown as MapWin).eoMap.onDrawn({
          shape: 'rectangle',
          ring: [
            [0, 0],
            [9, 0],
            [9, 9],
            [0, 9],
            [0, 0],
          ],
        }),
      );
      await h.page.click('#search');
      await h.page.waitForSelector('#results li:nth-child(2)');
      assert.equal(await h.page.isVisible('#order-results'), true);
      assert.equal(await h.page.isDisabled('#order-results'), true, 'nothing selected yet');
      await h.page.click('#results li[data-id="r2"]');
      assert.equal(await h.page.isDisabled('#order-results'), false);
      await h.page.click('#order-results');
      const m = await h.waitFor<{ items: unknown }>(isType('orderResults'));
      assert.deepEqual(m.items, [{ collection: 'c1', id: 'r2' }]);
      // a new search drops the selection, and with it the order
      await h.page.click('#search');
      await waitUntil(
        h.page,
        () => document.querySelector('#results li[aria-selected="true"]') === null && document.querySelectorAll('#results li').length === 2,
      );
      assert.equal(await h.page.isDisabled('#order-results'), true);
      assert.equal(h.posted.filter(isType('orderResults')).length, 1);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('brings back the results list, count, "Load more" and the selected row after a reload', async () => {
    const pages: SearchPage[] = [
      { searchId: 7, features: [squareFeature('r1', 0, 0), squareFeature('r2', 5, 5)], loaded: 2, matched: 5, hasMore: true },
      { searchId: 7, features: [squareFeature('r3', 10, 10), squareFeature('r4', 15, 15)], loaded: 4, matched: 5, hasMore: true },
      { searchId: 7, features: [squareFeature('r5', 20, 0)], loaded: 5, matched: 5, hasMore: false },
    ];
    let next = 0;
    const requests: MapRequest[] = [];
    const onRequest = (r: unknown): unknown => {
      const req = r as MapRequest;
      requests.push(req);
      if (req.method === 'searchOptions') return options;
      if (req.method === 'search' || req.method === 'searchMore') return pages[next++];
      throw new Error('unexpected');
    };
    let saved: unknown;
    const h = await openWebview('map', { onRequest });
    try {
      await ready(h);
      await h.page.evaluate(() =>
        (window as unknown as MapWin).eoMap.onDrawn({
          shape: 'rectangle',
          ring: [
            [0, 0],
            [30, 0],
            [30, 30],
            [0, 30],
            [0, 0],
          ],
        }),
      );
      await h.page.click('#search');
      await h.page.waitForSelector('#results li:nth-child(2)');
      await h.page.click('#load-more');
      await h.page.waitForSelector('#results li:nth-child(4)');
      await h.page.click('#results li[data-id="r3"]');
      assert.equal(await h.page.getAttribute('#results li[data-id="r3"]', 'aria-selected'), 'true');
      saved = await h.page.evaluate(() => (window as unknown as MapWin).__state);
    } finally {
      await h.close();
    }
    assert.ok(saved, 'the map saved no state');

    // The same webview page loaded again with what it saved (as VS Code does after hiding it).
    const h2 = await openWebview('map', { onRequest, state: saved });
    try {
      await ready(h2);
      const rows = await h2.page.$$eval('#results li', (li) => li.map((x) => (x as HTMLElement).dataset.id));
      assert.deepEqual(rows, ['r1', 'r2', 'r3', 'r4']);
      assert.equal(await h2.page.textContent('#status'), '4 of 5 results');
      assert.equal(await h2.page.isVisible('#load-more'), true);
      assert.equal(await h2.page.getAttribute('#results li[data-id="r3"]', 'aria-selected'), 'true');
      assert.equal(await h2.page.locator('#results li[aria-selected="true"]').count(), 1);
      const layer = await h2.page.evaluate(() => {
        const w = window as unknown as MapWin;
        return { size: w.eoMap.layers.results.size, selected: w.eoMap.layers.results.selected, app: w.eoMap.selected };
      });
      assert.deepEqual(layer, { size: 4, selected: 'r3', app: { layer: 'results', id: 'r3' } });
      assert.equal(await h2.page.isDisabled('#order-results'), false, 'the restored selection can be ordered');
      // "Load more" continues the same search
      await h2.page.click('#load-more');
      await h2.page.waitForSelector('#results li:nth-child(5)');
      assert.deepEqual(
        requests.filter((r) => r.method === 'searchMore'),
        [
          { method: 'searchMore', searchId: 7 },
          { method: 'searchMore', searchId: 7 },
        ],
      );
      assert.equal(await h2.page.textContent('#status'), '5 of 5 results (all loaded)');
      assert.equal(await h2.page.isHidden('#load-more'), true);
      assert.equal(await h2.page.getAttribute('#results li[data-id="r3"]', 'aria-selected'), 'true');
      assert.deepEqual(h2.pageErrors, []);
    } finally {
      await h2.close();
    }
  });

  it('restores viewport, form and panel from saved state; falls back offline when tiles fail', async () => {
    const state = { center: [48.85, 2.35], zoom: 9, search: { kind: 'imagery', maxCloud: 7, from: '2024-01-01', to: '2024-02-01' }, panelOpen: true };
    const h = await openWebview('map', { state, onRequest: () => options, imgSources: ['http://127.0.0.1:9'] });
    try {
      await h.waitFor(isType('ready'));
      // a tile server that answers 404: the map switches to the offline outlines and says so
      await h.send({
        type: 'init',
        basemaps: [{ name: 'Broken <b>tiles</b>', url: 'http://127.0.0.1:9/{z}/{x}/{y}.png', attribution: '<img src=x onerror=alert(1)>' }],
      });
      const view = await h.page.evaluate(() => {
        const m = (window as unknown as MapWin & { eoMap: { map: { getCenter(): { lat: number; lng: number }; getZoom(): number } } }).eoMap.map;
        return { c: m.getCenter(), z: m.getZoom() };
      });
      assert.equal(view.z, 9);
      assert.ok(Math.abs(view.c.lat - 48.85) < 1e-6);
      assert.equal(await h.page.isChecked('#kind-imagery'), true);
      assert.equal(await h.page.inputValue('#max-cloud'), '7');
      assert.equal(await h.page.inputValue('#from'), '2024-01-01');
      await h.page.waitForSelector('.notice', { timeout: 5000 });
      assert.match((await h.page.textContent('.notice')) ?? '', /could not be loaded; showing the offline outlines/);
      assert.equal(await h.page.locator('.leaflet-control-layers-base label', { hasText: 'Broken <b>tiles</b>' }).count(), 1);
      assert.equal(await h.page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
      assert.deepEqual(
        h.pageErrors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED/.test(e)),
        [],
      );
    } finally {
      await h.close();
    }
  });
  it('draws without a mouse (arrow keys and Space), searches the current view, and Enter on a result opens it', async () => {
    const requests: SearchParams[] = [];
    const page: SearchPage = { searchId: 1, loaded: 2, hasMore: false, features: [squareFeature('r1', 1, 46, 1), squareFeature('r2', 3, 47, 1)] };
    const h = await openWebview('map', {
      onRequest: (r) => {
        const req = r as MapRequest;
        if (req.method === 'search') {
          requests.push(req.params);
          return page;
        }
        return options;
      },
    });
    try {
      await ready(h);
      await moveMap(h.page, { setView: [46, 2], zoom: 6 });
      // Rectangle from the keyboard: the button starts it and gives the map the focus; Space at
      // one corner, the arrow keys move the map, Space at the other
      await h.page.focus('#draw-rect');
      await h.page.keyboard.press('Enter');
      assert.equal(await h.page.evaluate(() => document.activeElement?.id), 'map');
      assert.equal(await h.page.isVisible('.eo-crosshair'), true, 'a crosshair marks where Space puts a corner');
      await h.page.keyboard.press('Space');
      // (Leaflet ignores an arrow key while the previous one's pan is animating: a person's pace)
      for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown']) await arrow(h, key);
      await h.page.keyboard.press('Space');
      await waitUntil(h.page, () => /Rectangle drawn/.test(document.getElementById('shape-info')?.textContent ?? ''));
      const ring = await h.page.evaluate(() => (window as unknown as MapWin).eoMap.drawnRing as { ring: [number, number][] });
      const lons = ring.ring.map((p) => p[0]);
      const lats = ring.ring.map((p) => p[1]);
      assert.ok(Math.max(...lons) - Math.min(...lons) > 0.1 && Math.max(...lats) - Math.min(...lats) > 0.1, `a real rectangle: ${JSON.stringify(ring.ring)}`);
      assert.equal(await h.page.isVisible('.eo-crosshair'), false);
      // a polygon from the keyboard: Space at three corners, Enter finishes
      await h.page.focus('#draw-poly');
      await h.page.keyboard.press('Enter');
      await h.page.keyboard.press('Space');
      for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft']) {
        for (let i = 0; i < 2; i++) await arrow(h, key);
        await h.page.keyboard.press('Space');
      }
      await h.page.keyboard.press('Enter');
      await waitUntil(h.page, () => /Polygon drawn/.test(document.getElementById('shape-info')?.textContent ?? ''));
      // the area the map shows now, in one press
      await h.page.click('#draw-view');
      await waitUntil(h.page, () => /Rectangle drawn/.test(document.getElementById('shape-info')?.textContent ?? ''));
      const view = await h.page.evaluate(() => {
        const w = window as unknown as { eoMap: { map: { getBounds(): { getWest(): number; getEast(): number } } }; __state?: unknown };
        const b = w.eoMap.map.getBounds();
        const r = (w as unknown as MapWin).eoMap.drawnRing as { ring: [number, number][] };
        return { west: b.getWest(), east: b.getEast(), ringWest: Math.min(...r.ring.map((p) => p[0])), ringEast: Math.max(...r.ring.map((p) => p[0])) };
      });
      assert.ok(view.ringWest > view.west && view.ringEast < view.east && view.ringEast - view.ringWest > (view.east - view.west) * 0.8, JSON.stringify(view));
      await h.page.click('#search');
      await h.page.waitForSelector('#results li');
      // Enter on a result selects it and opens its details; Space only selects
      await h.page.focus('#results li[data-id="r2"]');
      await h.page.keyboard.press('Space');
      assert.equal(h.posted.filter((m) => (m as { type?: string }).type === 'open').length, 0);
      await h.page.keyboard.press('Enter');
      const opened = await h.waitFor<{ ref: { id: string } }>((m) => (m as { type?: string }).type === 'open');
      assert.equal(opened.ref.id, 'r2');
      assert.equal(await h.page.getAttribute('#results li[data-id="r2"]', 'aria-selected'), 'true');
    } finally {
      await h.close();
    }
  });

  it('a drawing selects no text and opens no popup of the footprint under its last click', async () => {
    const h = await openWebview('map', { onRequest: () => options });
    try {
      await ready(h);
      await h.send({ type: 'layer', layer: 'results', mode: 'replace', fit: true, features: [squareFeature('under', 0, 45, 4)] });
      await h.page.click('#draw-rect');
      const a = await h.page.evaluate(() => {
        const w = window as unknown as MapWin;
        const r = document.getElementById('map')!.getBoundingClientRect();
        const p = w.eoMap.map.latLngToContainerPoint([46, 1]);
        const q = w.eoMap.map.latLngToContainerPoint([48, 3]);
        return { x0: r.left + p.x, y0: r.top + p.y, x1: r.left + q.x, y1: r.top + q.y };
      });
      await h.page.mouse.move(a.x0, a.y0);
      await h.page.mouse.down();
      // past the map, over the side panel's text, and back
      await h.page.mouse.move(a.x1 + 600, a.y1, { steps: 6 });
      await h.page.mouse.move(a.x1, a.y1, { steps: 6 });
      await h.page.mouse.up();
      await waitUntil(h.page, () => /Rectangle drawn/.test(document.getElementById('shape-info')?.textContent ?? ''));
      await h.page.waitForTimeout(300);
      assert.equal(await h.page.evaluate(() => String(window.getSelection() ?? '')), '', 'no text selected');
      assert.equal(await h.page.$('.eo-popup'), null, 'no popup opened by the drawing');
      assert.equal(h.posted.filter((m) => (m as { type?: string }).type === 'open').length, 0, 'no detail opened by the drawing');
    } finally {
      await h.close();
    }
  });
  it('says so when no service is connected: a banner with the ways back, the search off, the map dimmed', async () => {
    const h = await openWebview('map', { onRequest: () => options });
    try {
      await ready(h);
      await h.send({ type: 'layer', layer: 'results', mode: 'replace', fit: true, features: [squareFeature('r1', 1, 46, 1)] });
      await h.page.evaluate(() =>
        (window as unknown as MapWin).eoMap.onDrawn({
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
      assert.equal(await h.page.isDisabled('#search'), false);
      await h.send({ type: 'connection', connected: false, configured: false });
      const banner = h.page.locator('#not-connected');
      await banner.waitFor();
      assert.match((await banner.textContent()) ?? '', /No EO Imagery service is connected/);
      assert.equal(await h.page.isDisabled('#search'), true, 'no search without a service');
      assert.equal(await h.page.evaluate(() => getComputedStyle(document.querySelector('.leaflet-overlay-pane')!).opacity), '0.45');
      await h.page.click('#banner-sandbox');
      const asked = await h.waitFor<{ how: string }>((m) => (m as { type?: string }).type === 'connect');
      assert.equal(asked.how, 'trySandbox');
      // Search Archive Here while signed out: the search says why it did not run
      await h.send({ type: 'searchView' });
      await waitUntil(h.page, () => /Not connected/.test(document.getElementById('status')?.textContent ?? ''), undefined, { timeout: 5000 });
      await h.send({ type: 'connection', connected: true, configured: true });
      await banner.waitFor({ state: 'detached' });
      assert.equal(await h.page.isDisabled('#search'), false);
      assert.doesNotMatch((await h.page.locator('#status').textContent()) ?? '', /Not connected/, 'connected again, the search no longer says it is not');
      assert.equal(await h.page.evaluate(() => getComputedStyle(document.querySelector('.leaflet-overlay-pane')!).opacity), '1');
    } finally {
      await h.close();
    }
  });
});
