// Helpers for e2e tests that drive webviews inside the code-server workbench: finding a
// webview's frame, reading the map's drawn shapes, watching webview consoles for CSP and
// script errors, and context menus on tree rows.
import * as assert from 'node:assert/strict';
import type { ConsoleMessage, Frame, Page } from 'playwright-core';
import { dismissHover } from './widgets';
import { waitForTreeRow } from './workbench';
import { waitUntil } from '../support/waitUntil';

export interface Bounds {
  west: number;
  east: number;
  south: number;
  north: number;
}

export async function api<T>(base: string, token: string, p: string): Promise<T> {
  const res = await fetch(`${base}${p}`, { headers: { Authorization: `Bearer ${token}` } });
  assert.ok(res.ok, `${p} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The frame holding the webview whose page defines `global` (eoMap, eoStac or eoJobGraph). */
/**
 * The Sentinel-2 collection of the sandbox's archive and the clearest of its first 20 items, as
 * a person would pick one for a look; `smallOnly` leaves out the 1.3 GB full-size scene.
 */
export async function clearArchiveItem(
  base: string,
  token: string,
  opts: { smallOnly?: boolean } = {},
): Promise<{ collection: { id: string; title: string }; itemId: string }> {
  const collections = await api<{ collections: Array<{ id: string; title: string }> }>(base, token, '/v0/archives/collections');
  const collection = collections.collections.find((x) => /sentinel-2/i.test(x.id)) ?? collections.collections[0];
  const items = await api<{ features: Array<{ id: string; properties: { 'eo:cloud_cover'?: number } }> }>(
    base,
    token,
    `/v0/archives/collections/${collection.id}/items?limit=20`,
  );
  const itemId = [...items.features]
    .filter((f) => !opts.smallOnly || !f.id.endsWith('_00001'))
    .sort((a, b) => (a.properties['eo:cloud_cover'] ?? 100) - (b.properties['eo:cloud_cover'] ?? 100))[0].id;
  return { collection, itemId };
}

export async function webviewFrame(page: Page, global: 'eoMap' | 'eoStac' | 'eoJobGraph', timeoutMs = 30_000, not?: Frame): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      if (f === not || f.isDetached()) continue;
      const has = await f.evaluate((g) => (window as unknown as Record<string, unknown>)[g] !== undefined, global).catch(() => false);
      if (has) return f;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no webview frame with window.${global} within ${timeoutMs} ms`);
}

/** Console lines from webview frames (their URLs are served from the webview resource origin). */
export function watchWebviewConsole(page: Page): string[] {
  const lines: string[] = [];
  const fromWebview = (url: string): boolean => /vscode-cdn\.net|vscode-resource|vscode-webview/.test(url);
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    const url = m.location().url ?? '';
    if (fromWebview(url) || /Content Security Policy|Refused to/.test(m.text())) lines.push(`[${m.type()}] ${m.text()} (${url})`);
  });
  page.on('pageerror', (e) => lines.push(`[pageerror] ${e.message}`));
  return lines;
}

/** Right-clicks a tree row and picks a context-menu entry by its label. */
export async function contextMenu(page: Page, view: string, rowLabel: string, entry: string): Promise<void> {
  const row = await waitForTreeRow(page, view, rowLabel);
  for (let attempt = 1; ; attempt++) {
    // A row's tooltip left open lies over the rows and takes the click: move away first.
    await dismissHover(page);
    await row.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    const item = menu.locator('.action-item').filter({ hasText: entry }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    // the menu ignores a click that lands while it is still opening
    await page.waitForTimeout(300);
    await item.click();
    const closed = await menu
      .first()
      .waitFor({ state: 'hidden', timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    if (closed) return;
    if (attempt === 3) throw new Error(`the context menu entry "${entry}" of "${rowLabel}" did not run`);
    await page.keyboard.press('Escape');
  }
}

export async function layerBounds(frame: Frame, layer: string, id: string): Promise<Bounds | undefined> {
  return frame.evaluate(
    ([l, i]) => {
      const app = (
        window as unknown as {
          eoMap: {
            layers: Record<
              string,
              { get(id: string): unknown; getBounds(id: string): { getWest(): number; getEast(): number; getSouth(): number; getNorth(): number } | undefined }
            >;
          };
        }
      ).eoMap;
      const b = app.layers[l].get(i) !== undefined ? app.layers[l].getBounds(i) : undefined;
      return b ? { west: b.getWest(), east: b.getEast(), south: b.getSouth(), north: b.getNorth() } : undefined;
    },
    [layer, id] as const,
  );
}

/** Waits until the map webview has drawn the shape `id` on `layer`; its bounds in map degrees. */
export async function waitForBounds(frame: Frame, layer: string, id: string, timeoutMs = 30_000): Promise<Bounds> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const b = await layerBounds(frame, layer, id);
    if (b) return b;
    await frame.page().waitForTimeout(200);
  }
  throw new Error(`the ${layer} shape ${id} was not drawn within ${timeoutMs} ms`);
}

/** Waits for the map's imagery layer row `id` to finish (ready or error); returns its state and text. */
export async function imageryRowSettled(map: Frame, id: string): Promise<{ state: string; text: string }> {
  await waitUntil(
    map,
    (rid) => {
      const r = document.querySelector(`.eo-imagery-row[data-id="${rid}"]`) as HTMLElement | null;
      return r && (r.dataset.state === 'ready' || r.dataset.state === 'error');
    },
    id,
    { timeout: 90_000 },
  );
  return map
    .locator(`.eo-imagery-row[data-id="${id}"]`)
    .evaluate((r) => ({ state: (r as HTMLElement).dataset.state ?? '', text: r.querySelector('.status')?.textContent ?? '' }));
}
