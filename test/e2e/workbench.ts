// End-to-end harness: the service sandbox as its own process (the CLI users run), code-server
// with this extension loaded as under development, and the workbench in headless Chromium.
// Helpers find things the way a person does: the activity-bar icon, view sections, tree rows.
// Imported only by e2e test files: it registers the hook that closes the shared window.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import type { Locator, Page } from 'playwright-core';
import * as assert from 'node:assert/strict';
import { after } from 'node:test';
import { openWorkbench, REPO_ROOT, type OpenedWorkbench } from '../integration/harness/codeServer';
import { startSandboxCli, type SandboxProcess } from './sandboxCli';
export { startSandboxCli, type SandboxProcess } from './sandboxCli';
import { api, watchWebviewConsole } from './webviews';
import { extensionLogText, runCommand, viewAction } from './widgets';
import { waitUntil } from '../support/waitUntil';

export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');
export const SCREENSHOTS_DIR = path.join(RESULTS_DIR, 'screenshots');

export interface EoWorkbench extends OpenedWorkbench {
  sandbox?: SandboxProcess;
}

export interface EoWorkbenchOptions {
  signedInAs?: 'alice' | 'bob';
  /**
   * The sandbox `signedInAs` signs in to, when it is already running (a second window on the
   * same service); it is left running when the workbench closes. Default: one of its own.
   */
  sandbox?: SandboxProcess;
  /** More user settings, e.g. `eoImagery.baseUrl` of a service the test runs itself. */
  settings?: Record<string, unknown>;
  /** Flags for the sandbox CLI that `signedInAs` starts, e.g. `['--speed', '20']`. */
  sandboxArgs?: string[];
}

/**
 * Opens the workbench with the extension under development. With `signedInAs`, a sandbox CLI
 * runs and the extension finds it through `eoImagery.baseUrl` and `EO_API_TOKEN`, as a
 * headless user would configure it. Without, the extension starts signed out.
 */
export async function openEoWorkbench(options: EoWorkbenchOptions = {}): Promise<EoWorkbench> {
  let sandbox: SandboxProcess | undefined;
  const env: Record<string, string> = {};
  const settings: Record<string, unknown> = { ...options.settings };
  const own = !options.sandbox;
  if (options.signedInAs) {
    sandbox = options.sandbox ?? (await startSandboxCli(options.sandboxArgs));
    env.EO_API_TOKEN = sandbox.tokens[options.signedInAs];
    settings['eoImagery.baseUrl'] = sandbox.url;
    // the sandbox's prices are made up: in credits, as npm start and Try the Sandbox show them
    settings['eoImagery.amounts.unit'] ??= 'credits';
  }
  // Keep a token from the calling shell out of the signed-out workbench.
  const workbench = await openWorkbench({ env: { EO_API_TOKEN: '', ...env }, settings }).catch(async (err: unknown) => {
    if (own) await sandbox?.close();
    throw err;
  });
  await waitForWorkbench(workbench.page);
  return {
    ...workbench,
    sandbox,
    close: async () => {
      await workbench.close();
      if (own) await sandbox?.close();
    },
  };
}

/** Resolves when the workbench shows its activity bar (the extension host may still start). */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The EO Imagery activity-bar entry. */
export function activityBarItem(page: Page): Locator {
  return page
    .locator('.part.activitybar .action-item')
    .filter({ has: page.locator('[aria-label^="EO Imagery"]') })
    .first();
}

/**
 * Clicks the EO Imagery icon (unless its container is already open) and waits for its views:
 * the five views when signed in, the one welcome (`{ signedOut: true }`) when signed out.
 */
export async function openEoContainer(page: Page, timeoutMs = 60_000, options: { signedOut?: boolean } = {}): Promise<void> {
  const item = activityBarItem(page);
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  const checked = await item.evaluate((el) => el.classList.contains('checked'));
  if (!checked) await item.click();
  const shown = options.signedOut ? signedOutWelcome(page).getByRole('button', { name: 'Sign In', exact: true }) : viewSection(page, 'Projects');
  await shown.waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The signed-out welcome: the one view the container shows before sign-in. */
export function signedOutWelcome(page: Page): Locator {
  return page.locator('.part.sidebar .welcome-view').filter({ has: page.getByRole('button', { name: 'Try the Sandbox', exact: true }) });
}

/** A view's section (header and body) in the side bar, by its name, e.g. "Projects". */
export function viewSection(page: Page, name: string): Locator {
  return page
    .locator('.part.sidebar .split-view-view')
    .filter({ has: page.locator(`.pane-header[aria-label^="${name} Section"]`) })
    .first();
}

/** Expands a collapsed view section. */
export async function expandView(page: Page, name: string): Promise<void> {
  const header = viewSection(page, name).locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
}

/** Collapses a view section, giving the others its room. */
export async function collapseView(page: Page, name: string): Promise<void> {
  const header = viewSection(page, name).locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
}

/** The five views of the EO Imagery container, top to bottom. */
export const EO_VIEWS = ['Projects', 'Orders', 'Catalog', 'Cloud Stores', 'Archive'] as const;

/** Gives one view all the room: the other views collapsed, it expanded. */
export async function soleView(page: Page, name: (typeof EO_VIEWS)[number]): Promise<void> {
  // a header clicked while the sections above it still move can miss (a shared window's Cloud
  // Stores stayed open and left Projects four rows high): looked at again, and clicked again
  for (let attempt = 1; ; attempt++) {
    for (const v of EO_VIEWS) if (v !== name) await collapseView(page, v);
    await expandView(page, name);
    const open = await Promise.all(EO_VIEWS.map((v) => viewSection(page, v).locator('.pane-header').getAttribute('aria-expanded')));
    if (EO_VIEWS.every((v, i) => (open[i] === 'true') === (v === name))) return;
    if (attempt === 3) throw new Error(`the ${name} view could not be given the side bar alone: ${EO_VIEWS.map((v, i) => `${v} ${open[i]}`).join(', ')}`);
    await page.waitForTimeout(300);
  }
}

/** Drags the sash between the side bar and the editor until the side bar is `width` px wide. */
export async function setSidebarWidth(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || Math.abs(box.width - width) < 2) return;
  const x = box.x + box.width;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + (width - box.width) / 2, y, { steps: 5 });
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
}

/** Tree rows of a view (role=treeitem); their accessible labels are the items' labels. */
export function treeRows(page: Page, view: string): Locator {
  return viewSection(page, view).locator('[role="treeitem"]');
}

/** Waits for a tree row whose label contains `label`. */
export async function waitForTreeRow(page: Page, view: string, label: string, timeoutMs = 30_000): Promise<Locator> {
  const row = treeRows(page, view).filter({ hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  return row;
}

/**
 * Expands the tree row whose label contains `label` and waits for a child row. A click that
 * lands while the view is still settling (a section opening, a refresh) can be swallowed
 * without expanding: the row is clicked again until it says it is expanded.
 */
export async function expandRow(page: Page, view: string, label: string, childLabel: RegExp | string, timeoutMs = 30_000): Promise<void> {
  const row = await waitForTreeRow(page, view, label, Math.max(timeoutMs, 60_000));
  for (let attempt = 1; (await row.getAttribute('aria-expanded')) !== 'true'; attempt++) {
    if (attempt > 3) throw new Error(`the "${label}" row of ${view} did not expand after 3 clicks`);
    await row.click();
    await waitUntil(page, (el) => el?.getAttribute('aria-expanded') === 'true', await row.elementHandle(), { timeout: 5_000 }).catch(() => undefined);
  }
  await treeRows(page, view).filter({ hasText: childLabel }).first().waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The labels of the visible tree rows of a view. */
export async function treeRowLabels(page: Page, view: string): Promise<string[]> {
  return (await treeRows(page, view).allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

/**
 * Saves a full-page screenshot to test-results/screenshots/<name>.png; returns the path.
 * `belowTitleBar`: the window without its title bar, which in this workbench reads
 * "[Extension Development Host]", a label a person's window never shows (the walkthrough's
 * pictures are taken so).
 */
export async function screenshot(page: Page, name: string, options: { belowTitleBar?: boolean } = {}): Promise<string> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  // Park the pointer over the empty editor area so no hover tooltip lands in the picture.
  const size = page.viewportSize();
  if (size) await page.mouse.move(size.width - 20, size.height / 2);
  // The workbench hides a hover only after its own delay.
  await page.waitForTimeout(800);
  const bar = options.belowTitleBar && size ? await page.locator('.part.titlebar').first().boundingBox() : null;
  const top = bar ? Math.ceil(bar.y + bar.height) : 0;
  await page.screenshot({ path: file, ...(size && top ? { clip: { x: 0, y: top, width: size.width, height: size.height - top } } : {}) });
  return file;
}

/** Runs `fn` with a workbench, saving a `<name>-failure` screenshot if it throws. */
export async function withWorkbench(name: string, options: EoWorkbenchOptions, fn: (wb: EoWorkbench) => Promise<void>): Promise<void> {
  const wb = await openEoWorkbench(options);
  try {
    await fn(wb);
  } catch (err) {
    await reportFailure(wb, name, err);
    throw err;
  } finally {
    await wb.close();
  }
}

/**
 * What a failed test leaves for a person: a screenshot, the workbench console's and the EO
 * Imagery log's last lines appended to `err`'s message, and both whole beside the screenshot.
 */
export async function reportFailure(wb: OpenedWorkbench, name: string, err: unknown): Promise<void> {
  await screenshot(wb.page, `${name}-failure`).catch(() => undefined);
  const logs = wb.consoleLines
    .filter((l) => /error|eo-imagery|eoImagery/i.test(l))
    .slice(-20)
    .join('\n');
  let full = '(no log file)';
  try {
    full = extensionLogText(wb.userDataDir);
  } catch {
    /* no log yet: said as such */
  }
  const extensionLog = full.split('\n').slice(-25).join('\n');
  if (err instanceof Error) err.message += `\n--- workbench console (filtered) ---\n${logs}\n--- EO Imagery log (last lines) ---\n${extensionLog}`;
  // the whole of both beside the failure's screenshot (the reporter may print only the first lines)
  try {
    fs.writeFileSync(path.join(SCREENSHOTS_DIR, `${name}-failure.log`), `${wb.consoleLines.join('\n')}\n--- EO Imagery log ---\n${full}`);
  } catch {
    /* the failure itself is what matters */
  }
}

/** A workbench signed in to its own sandbox CLI: the sandbox, its URL and the user's token at hand. */
export interface SandboxWorkbench extends EoWorkbench {
  sandbox: SandboxProcess;
  /** The sandbox's base URL, for asking the service directly what a view should show. */
  base: string;
  /** The signed-in user's token, for those direct requests. */
  token: string;
}

/**
 * `withWorkbench` signed in to a sandbox CLI of its own as `user` (alice unless said). Signed in
 * as alice with no settings of its own, the test runs in the window the tests of this process
 * share (`sharedWindow`), pointed at its sandbox; `ownWindow` opens a fresh profile instead, for
 * a test that needs one (what a first start shows, state a window keeps across tests).
 */
export async function withSandboxWorkbench(
  name: string,
  options: Omit<EoWorkbenchOptions, 'signedInAs'> & { user?: 'alice' | 'bob'; ownWindow?: boolean },
  fn: (wb: SandboxWorkbench) => Promise<void>,
): Promise<void> {
  const { user = 'alice', ownWindow = false, ...rest } = options;
  if (ownWindow || user !== 'alice' || rest.settings || rest.sandbox) {
    await withWorkbench(name, { ...rest, signedInAs: user }, async (wb) => {
      const { sandbox } = wb;
      if (!sandbox) throw new Error('signedInAs started no sandbox');
      await fn({ ...wb, sandbox, base: sandbox.url, token: sandbox.tokens[user] });
    });
    return;
  }
  const sandbox = await startSandboxCli(rest.sandboxArgs);
  try {
    const wb = await sharedWindow(sandbox);
    try {
      await fn({ ...wb, sandbox, base: sandbox.url, token: sandbox.tokens.alice });
    } catch (err) {
      await reportFailure(wb, name, err);
      throw err;
    } finally {
      // signed out while this test's sandbox still answers; a window that cannot be put back is
      // closed, and the next test opens a fresh one
      await resetSharedWindow(wb).catch(async (err: unknown) => {
        await screenshot(wb.page, `${name}-reset-failure`).catch(() => undefined);
        console.error(`the shared window could not be put back after "${name}", the next test opens a fresh one: ${String(err)}`);
        shared = undefined;
        await wb.close();
      });
    }
  } finally {
    await sandbox.close();
  }
}

/**
 * The window the tests of one process share: starting a workbench (code-server, Chromium, the
 * workbench page, the extension host) costs about 25 CPU s, most of an e2e test's. Opened signed
 * in as alice on the first test's sandbox; each later test points it at its own sandbox through
 * `eoImagery.baseUrl` (as a person switching services does), after `resetSharedWindow` put it
 * back as a fresh one shows itself. scripts/test-all.mjs runs the files of a group in one
 * process (`E2E_SHARED_WINDOWS`), so they share it; a file run alone shares it between its tests.
 */
let shared: EoWorkbench | undefined;
/** The side bar's width as the shared window opened (a test may drag it wider). */
let openedSidebarWidth = 0;
after(async () => {
  await shared?.close();
  shared = undefined;
});

/**
 * Changes user settings as a person does in settings.json: opened from the palette, its text
 * replaced (pasted, so the editor's auto-closing cannot touch it) and saved. The workbench does
 * not notice settings.json written behind its back, so the file is edited through it.
 */
async function changeUserSettings(wb: EoWorkbench, change: Record<string, unknown>): Promise<void> {
  const { page } = wb;
  const file = path.join(wb.userDataDir, 'User', 'settings.json');
  const read = (): Record<string, unknown> => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const wanted = { ...read(), ...change };
  // one line: pasted lines would be indented again by the editor
  const next = JSON.stringify(wanted);
  await wb.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.evaluate((text) => navigator.clipboard.writeText(text), next);
  await runCommand(page, 'Preferences: Open User Settings (JSON)');
  const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
  await editor.waitFor({ state: 'visible', timeout: 30_000 });
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.keyboard.press('Control+S');
  const saved = (): boolean => {
    try {
      return util.isDeepStrictEqual(read(), wanted);
    } catch {
      return false; // caught mid-write
    }
  };
  for (const deadline = Date.now() + 30_000; !saved(); await page.waitForTimeout(100)) {
    if (Date.now() > deadline) throw new Error(`settings.json was not saved as ${next}`);
  }
  await runCommand(page, 'View: Close All Editors');
}

/** The status bar item of the connection, once its text matches `text`. */
async function waitForConnectionStatus(page: Page, text: string | RegExp, timeoutMs = 120_000): Promise<void> {
  await page.locator('.part.statusbar').getByText(text).first().waitFor({ state: 'visible', timeout: timeoutMs });
}

async function sharedWindow(sandbox: SandboxProcess): Promise<EoWorkbench> {
  const settings = { 'eoImagery.baseUrl': sandbox.url, 'eoImagery.amounts.unit': 'credits' };
  if (!shared) {
    // The token is the window's (EO_API_TOKEN), the same on every sandbox; the URL is the test's.
    const workbench = await openWorkbench({ env: { EO_API_TOKEN: sandbox.tokens.alice }, settings });
    await waitForWorkbench(workbench.page);
    openedSidebarWidth = (await workbench.page.locator('.part.sidebar').boundingBox())?.width ?? 0;
    shared = workbench;
    return workbench;
  }
  await changeUserSettings(shared, settings);
  await waitForConnectionStatus(shared.page, `EO: ${new URL(sandbox.url).host}`);
  return shared;
}

/**
 * Puts the shared window back as a fresh one shows itself to the next test: no quick input,
 * menu, dialog or notification; no editor (a dirty one is not saved) and no panel; the EO
 * Imagery views expanded, their rows collapsed; the page and side bar at their first sizes;
 * the workspace folder empty; and signed out, so the next test's views load from its own
 * sandbox, never from this one's rows.
 */
async function resetSharedWindow(wb: EoWorkbench): Promise<void> {
  const { page } = wb;
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1400, height: 900 });
  const tabs = page.locator('.part.editor .tabs-container .tab');
  if ((await tabs.count()) > 0) {
    await runCommand(page, 'View: Close All Editors');
    const dontSave = page.locator('.monaco-dialog-box .dialog-buttons .monaco-button').filter({ hasText: "Don't Save" });
    for (const deadline = Date.now() + 15_000; (await tabs.count()) > 0; await page.waitForTimeout(100)) {
      if (Date.now() > deadline) throw new Error('the editors did not close');
      if (await dontSave.isVisible()) await dontSave.click();
    }
  }
  if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
  await runCommand(page, 'Notifications: Clear All Notifications');
  await openEoContainer(page);
  if (openedSidebarWidth) await setSidebarWidth(page, openedSidebarWidth);
  for (const view of EO_VIEWS) {
    await expandView(page, view);
    // The tree keeps what was expanded by id, and the next sandbox has the same ids: rows a test
    // opened would push the next test's rows out of view.
    const collapseAll = viewSection(page, view).locator('.pane-header .action-label[aria-label^="Collapse All"]');
    if ((await collapseAll.count()) > 0) await viewAction(viewSection(page, view), 'Collapse All');
  }
  await changeUserSettings(wb, { 'eoImagery.baseUrl': '' });
  await waitForConnectionStatus(page, 'EO: signed out');
  for (const entry of fs.readdirSync(wb.folder)) fs.rmSync(path.join(wb.folder, entry), { recursive: true, force: true });
  // a fresh window opens on the Explorer
  await runCommand(page, 'View: Show Explorer');
}

export interface SandboxAoi {
  aoi_id: string;
  name: string;
  project_id: string;
}

/** What the map's e2e tests start from (`startMapTest`). */
export interface MapTestStart {
  /** The webview frames' console errors and CSP violations (`assertNoWebviewErrors`). */
  webviewConsole: string[];
  projects: { id: string; name: string }[];
  aois: SandboxAoi[];
  /** The seeded AOI named so (a RegExp: the first whose name matches); fails when none is. */
  aoi(name: string | RegExp): SandboxAoi;
  /** Expands the AOI's project in Projects until the AOI's row shows. */
  showAoiRow(aoi: SandboxAoi): Promise<void>;
}

/**
 * The prologue the map's e2e tests share: the webviews' console watched, a 1400 × 860 page, the
 * EO Imagery container open with Projects alone, and the sandbox's projects and AOIs at hand
 * (asked of the service directly, for the names a person would look for).
 */
export async function startMapTest({ page, base, token }: SandboxWorkbench): Promise<MapTestStart> {
  const webviewConsole = watchWebviewConsole(page);
  await page.setViewportSize({ width: 1400, height: 860 });
  await openEoContainer(page);
  await soleView(page, 'Projects');
  const { projects } = await api<{ projects: { id: string; name: string }[] }>(base, token, '/v0/projects?page_num=1&page_size=50');
  const { aois } = await api<{ aois: SandboxAoi[] }>(base, token, '/v0/aois?limit=100');
  return {
    webviewConsole,
    projects,
    aois,
    aoi: (name) => {
      const found = aois.find((a) => (typeof name === 'string' ? a.name === name : name.test(a.name)));
      assert.ok(found, `the sandbox has no AOI named ${String(name)}`);
      return found;
    },
    showAoiRow: async (aoi) => {
      // whatever a test before this one opened since, Projects has the room for the AOI's row
      await soleView(page, 'Projects');
      await expandRow(page, 'Projects', projects.find((p) => p.id === aoi.project_id)?.name ?? '', aoi.name);
    },
  };
}

/** No CSP violation or script error in the map's (or any webview's) console. */
export function assertNoWebviewErrors(lines: readonly string[]): void {
  assert.deepEqual(
    lines.filter((m) => /Content Security Policy|Refused to|Uncaught|TypeError|ReferenceError|pageerror/.test(m)),
    [],
    `webview console:\n${lines.join('\n')}`,
  );
}
