// Accessibility of the webviews: axe-core over the map (layer list open, a drawn area, search results)
// and the STAC item page, in the dark, light and both high-contrast themes, with zero serious
// or critical violations; keyboard use (tab order reaches the search form, Escape closes the
// footprint popup); the search status is a live region. Screenshots of the high-contrast
// themes go to test-results/screenshots/hc-*.png.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchPage } from '../../src/panels/protocol';
import { closeBrowser, isType, openWebview, ROOT, type Harness } from './harness';
import { squareFeature, stacItem } from './fixtures';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = join(ROOT, 'test-results', 'screenshots');

interface AxeResult {
  violations: { id: string; impact?: string; help: string; nodes: { target: string[] }[] }[];
}

/**
 * VS Code's themes as the webview sees them: body class and theme variables (1.100's values;
 * the high-contrast themes define no list selection colours but a 10 % tint in HC light, and
 * mark the selection with the focus outline). The dark theme is the harness's own fallbacks.
 */
const THEMES = {
  // Default Light Modern, VS Code's default light theme
  light: {
    cls: 'vscode-light',
    vars: {
      '--vscode-editor-background': '#ffffff',
      '--vscode-foreground': '#3b3b3b',
      '--vscode-editor-foreground': '#3b3b3b',
      '--vscode-focusBorder': '#005fb8',
      '--vscode-button-background': '#005fb8',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#0258a8',
      '--vscode-input-background': '#ffffff',
      '--vscode-input-foreground': '#3b3b3b',
      '--vscode-textLink-foreground': '#005fb8',
      '--vscode-descriptionForeground': '#3b3b3b',
      '--vscode-sideBar-background': '#f8f8f8',
      '--vscode-panel-border': '#e5e5e5',
      '--vscode-input-border': '#cecece',
      '--vscode-button-secondaryBackground': '#e5e5e5',
      '--vscode-button-secondaryForeground': '#3b3b3b',
      '--vscode-button-secondaryHoverBackground': '#cccccc',
      '--vscode-list-activeSelectionBackground': '#e8e8e8',
      '--vscode-list-activeSelectionForeground': '#000000',
      '--vscode-list-hoverBackground': '#f2f2f2',
      '--vscode-errorForeground': '#f85149',
      '--vscode-editorWidget-background': '#f8f8f8',
      '--vscode-textCodeBlock-background': '#f8f8f8',
    },
  },
  'high-contrast': {
    cls: 'vscode-high-contrast',
    vars: {
      '--vscode-editor-background': '#000000',
      '--vscode-foreground': '#ffffff',
      '--vscode-editor-foreground': '#ffffff',
      '--vscode-contrastBorder': '#6fc3df',
      '--vscode-focusBorder': '#f38518',
      '--vscode-button-background': '#000000',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-input-background': '#000000',
      '--vscode-input-foreground': '#ffffff',
      '--vscode-textLink-foreground': '#21a6ff',
      '--vscode-descriptionForeground': '#ffffff',
      '--vscode-sideBar-background': '#000000',
      '--vscode-panel-border': '#6fc3df',
      '--vscode-input-border': '#6fc3df',
      '--vscode-button-secondaryBackground': '#000000',
      '--vscode-button-secondaryForeground': '#ffffff',
      '--vscode-list-focusOutline': '#f38518',
      '--vscode-errorForeground': '#f48771',
      '--vscode-editorWidget-background': '#0c141f',
    },
  },
  'high-contrast-light': {
    cls: 'vscode-high-contrast-light',
    vars: {
      '--vscode-editor-background': '#ffffff',
      '--vscode-foreground': '#292929',
      '--vscode-editor-foreground': '#000000',
      '--vscode-contrastBorder': '#0f4a85',
      '--vscode-focusBorder': '#006bbd',
      '--vscode-button-background': '#0f4a85',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-input-background': '#ffffff',
      '--vscode-input-foreground': '#292929',
      '--vscode-textLink-foreground': '#0f4a85',
      '--vscode-descriptionForeground': '#292929',
      '--vscode-sideBar-background': '#ffffff',
      '--vscode-panel-border': '#0f4a85',
      '--vscode-input-border': '#0f4a85',
      '--vscode-button-secondaryBackground': '#ffffff',
      '--vscode-button-secondaryForeground': '#292929',
      '--vscode-list-activeSelectionBackground': 'rgba(15, 74, 133, 0.1)',
      '--vscode-list-hoverBackground': 'rgba(15, 74, 133, 0.1)',
      '--vscode-list-focusOutline': '#006bbd',
      '--vscode-errorForeground': '#b5200d',
      '--vscode-editorWidget-background': '#ffffff',
    },
  },
} as const;

async function applyTheme(h: Harness, theme: keyof typeof THEMES): Promise<void> {
  const t = THEMES[theme];
  // Through the CSSOM, which the page's CSP allows (a <style> element it would refuse).
  await h.page.evaluate(
    ({ cls, vars }: { cls: string; vars: Record<string, string> }) => {
      document.body.classList.remove('vscode-dark', 'vscode-light', 'vscode-high-contrast', 'vscode-high-contrast-light');
      document.body.classList.add(cls);
      for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
    },
    { cls: t.cls, vars: { ...t.vars } },
  );
}

async function axe(h: Harness): Promise<AxeResult['violations']> {
  // evaluate() runs outside the page's CSP, as a person's assistive tool would.
  await h.page.evaluate(AXE);
  const r = await h.page.evaluate(() =>
    (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResult> } }).axe.run(document, { resultTypes: ['violations'] }),
  );
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The contrast of an element's text (by default the selected result row's) on what is behind it
 * (its background over its ancestors'), computed in the page: axe leaves a half-transparent
 * background "incomplete".
 */
async function selectedRowContrast(h: Harness, selector = '#results li.selected'): Promise<number> {
  return h.page.evaluate((sel) => {
    const rgba = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number).concat([1]).slice(0, 4);
    const row = document.querySelector<HTMLElement>(sel)!;
    const layers: number[][] = [];
    for (let e: HTMLElement | null = row; e; e = e.parentElement) {
      const bg = rgba(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let under = [255, 255, 255];
    for (const l of layers.reverse()) under = under.map((u, i) => l[i] * l[3] + u * (1 - l[3]));
    const fg = rgba(getComputedStyle(row).color);
    const text = fg.slice(0, 3).map((v, i) => v * fg[3] + under[i] * (1 - fg[3]));
    const lum = (c: number[]) =>
      c
        .map((v) => v / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
    const [a, b] = [lum(text), lum(under)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  }, selector);
}

function describeViolations(vs: AxeResult['violations']): string {
  return vs
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    )
    .join('\n');
}

const options = { collections: [{ id: 'c1', title: 'Collection one' }], satellites: [], projects: [{ id: 'p1', name: 'Project one' }], errors: {} };

async function mapWithResults(theme?: keyof typeof THEMES): Promise<Harness> {
  const page: SearchPage = {
    searchId: 1,
    loaded: 2,
    hasMore: true,
    matched: 9,
    features: [squareFeature('r1', 1, 46, 1), squareFeature('r2', 3, 47, 1)],
  };
  const h = await openWebview('map', { onRequest: (r) => ((r as { method: string }).method === 'search' ? page : options) });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  await h.send({
    type: 'layer',
    layer: 'aois',
    mode: 'replace',
    fit: false,
    features: [{ ...squareFeature('a1', 0, 45, 5, 'aois'), ref: { kind: 'aoi', id: 'a1' } }],
  });
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
  // a selected row: its colours are the theme's list selection's
  await h.page.click('#results li[data-id="r1"]');
  await h.page.waitForSelector('#results li.selected');
  // the layer list open, as a person checking what is shown would have it
  await h.page.evaluate(() => document.querySelector('.leaflet-control-layers')?.classList.add('leaflet-control-layers-expanded'));
  await h.page.waitForSelector('.leaflet-control-layers-overlays label', { state: 'visible' });
  if (theme) await applyTheme(h, theme);
  return h;
}

after(() => closeBrowser());

describe('webview accessibility', () => {
  for (const theme of [undefined, 'light', 'high-contrast', 'high-contrast-light'] as const) {
    it(`map: no serious axe violations (${theme ?? 'dark'})`, async () => {
      const h = await mapWithResults(theme);
      try {
        const v = await axe(h);
        if (theme) {
          mkdirSync(SHOTS, { recursive: true });
          await h.page.screenshot({ path: join(SHOTS, `${theme.startsWith('high') ? 'hc-' : ''}map-${theme}.png`) });
        }
        assert.equal(v.length, 0, describeViolations(v));
        const contrast = await selectedRowContrast(h);
        assert.ok(contrast >= 4.5, `the selected result row's text has a contrast of ${contrast.toFixed(2)}:1`);
      } finally {
        await h.close();
      }
    });

    it(`map: the index chart's Export CSV, focused from the keyboard and under the mouse, can be read (${theme ?? 'dark'})`, async () => {
      const h = await openWebview('map', {
        onRequest: () => {
          throw new Error('not read in this test');
        },
      });
      try {
        await h.waitFor(isType('ready'));
        await h.send({ type: 'init', basemaps: [] });
        if (theme) await applyTheme(h, theme);
        const url = 'https://assets.example.com/field.tif';
        const spec = {
          id: 'f',
          title: 'Field',
          url,
          bands: [{ name: 'B04' }, { name: 'B08' }],
          render: { kind: 'rgb', bands: ['B04', 'B04', 'B04'] },
          source: { kind: 'url', url },
        };
        const polygon = squareFeature('field', 0, 0, 1).geometry;
        await h.send({
          type: 'seriesStart',
          requestId: 1,
          request: { title: 'Field', index: { name: 'NDVI', expression: '(B08-B04)/(B08+B04)' }, polygon, dates: [{ date: '2024-05-01', spec, source: 'a' }] },
        });
        await h.waitFor(isType('seriesDone'), 30_000);
        const csv = h.page.locator('#imagery-series button.csv');
        // reached from the keyboard (Shift+Tab from Save PNG), then the mouse rests on it
        await h.page.locator('#imagery-series button.png').focus();
        await h.page.keyboard.press('Shift+Tab');
        assert.equal(await csv.evaluate((b) => b === document.activeElement && b.matches(':focus-visible')), true, 'Export CSV has the keyboard focus');
        await csv.hover();
        const contrast = await selectedRowContrast(h, '#imagery-series button.csv');
        assert.ok(contrast >= 4.5, `Export CSV's text has a contrast of ${contrast.toFixed(2)}:1`);
      } finally {
        await h.close();
      }
    });

    it(`STAC item: no serious axe violations (${theme ?? 'dark'})`, async () => {
      const h = await openWebview('stacItem');
      try {
        await h.waitFor(isType('ready'));
        await h.send({ type: 'item', item: stacItem(), stacUrl: 'https://example.test/v0/archives/collections/sentinel-2-l2a/items/S2' });
        await h.page.waitForSelector('#item-id');
        if (theme) await applyTheme(h, theme);
        const v = await axe(h);
        if (theme) await h.page.screenshot({ path: join(SHOTS, `${theme.startsWith('high') ? 'hc-' : ''}stac-${theme}.png`) });
        assert.equal(v.length, 0, describeViolations(v));
      } finally {
        await h.close();
      }
    });
  }

  it('map: Escape closes a footprint popup; the arrow keys pan the focused map', async () => {
    const h = await mapWithResults();
    try {
      const box = await h.page.evaluate(() => {
        const w = window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } };
        const pt = w.eoMap.map.latLngToContainerPoint([47.5, 2.5]);
        const r = document.getElementById('map')!.getBoundingClientRect();
        return { x: r.left + pt.x, y: r.top + pt.y };
      });
      await h.page.mouse.click(box.x, box.y);
      await h.page.waitForSelector('.eo-popup');
      await h.page.focus('#map');
      await h.page.keyboard.press('Escape');
      await h.page.waitForSelector('.eo-popup', { state: 'detached', timeout: 2000 });
      const center = () => h.page.evaluate(() => (window as unknown as { eoMap: { map: { getCenter(): { lng: number } } } }).eoMap.map.getCenter().lng);
      const before = await center();
      await h.page.keyboard.press('ArrowRight');
      await h.page.waitForTimeout(400);
      assert.ok((await center()) > before, 'ArrowRight did not pan the map east');
    } finally {
      await h.close();
    }
  });

  it('map: the search status is a live region, the form is reachable by Tab with a visible focus, the results move with the arrows', async () => {
    const h = await mapWithResults();
    try {
      const live = await h.page.getAttribute('#status', 'role');
      assert.ok(live === 'status' || (await h.page.getAttribute('#status', 'aria-live')) === 'polite', 'the search status is not announced');
      await h.page.focus('#max-cloud');
      await h.page.keyboard.press('Tab');
      const next = await h.page.evaluate(() => document.activeElement?.id);
      assert.equal(next, 'limit', `Tab from "Max cloud %" went to ${next}`);
      const outline = await h.page.evaluate(() => {
        const s = getComputedStyle(document.activeElement as Element);
        return `${s.outlineStyle} ${s.outlineWidth}`;
      });
      assert.ok(!/^none/.test(outline) && !/ 0px$/.test(outline), `no focus outline on a focused input: ${outline}`);
      // the results list moves with the arrow keys, selecting as it goes
      await h.page.focus('#results li[data-id="r1"]');
      await h.page.keyboard.press('ArrowDown');
      assert.equal(await h.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.id), 'r2');
      assert.equal(await h.page.getAttribute('#results li[data-id="r2"]', 'aria-selected'), 'true');
      await h.page.keyboard.press('Home');
      assert.equal(await h.page.getAttribute('#results li[data-id="r1"]', 'aria-selected'), 'true');
    } finally {
      await h.close();
    }
  });
});
