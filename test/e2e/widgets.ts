// The workbench's own widgets as a person meets them: the command palette, quick picks and
// input boxes, notification toasts and their buttons, modal dialogs, the Problems panel and
// the files the editor keeps on disk (settings, logs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { waitUntil } from '../support/waitUntil';

const QUICK_INPUT = '.quick-input-widget';

/** Waits for the quick input whose placeholder, prompt or title matches `expect`. */
export async function waitForQuickInput(page: Page, expect: RegExp, timeoutMs = 30_000): Promise<Locator> {
  await waitUntil(
    page,
    ([sel, src, flags]) => {
      const w = document.querySelector(sel) as HTMLElement | null;
      if (!w || w.style.display === 'none' || w.offsetParent === null) return false;
      const re = new RegExp(src, flags);
      const placeholder = w.querySelector('.quick-input-box input')?.getAttribute('placeholder') ?? '';
      const message = w.querySelector('.quick-input-message')?.textContent ?? '';
      const title = w.querySelector('.quick-input-title')?.textContent ?? '';
      return re.test(placeholder) || re.test(message) || re.test(title);
    },
    [QUICK_INPUT, expect.source, expect.flags] as const,
    { timeout: timeoutMs },
  ).catch(async (err: unknown) => {
    // Say what the window showed instead: the open quick input and the notifications.
    const shown = await page
      .evaluate((sel) => {
        const w = document.querySelector(sel) as HTMLElement | null;
        const open = w && w.style.display !== 'none' && w.offsetParent !== null;
        const quick = open
          ? `title "${w.querySelector('.quick-input-title')?.textContent ?? ''}", placeholder "${w.querySelector('.quick-input-box input')?.getAttribute('placeholder') ?? ''}", message "${w.querySelector('.quick-input-message')?.textContent ?? ''}"`
          : 'no quick input open';
        const toasts = Array.from(document.querySelectorAll('.notification-toast'))
          .map((t) => (t as HTMLElement).innerText.replace(/\s+/g, ' '))
          .join(' | ');
        return `${quick}; notifications: ${toasts || 'none'}`;
      }, QUICK_INPUT)
      .catch(() => 'unknown');
    throw new Error(`no quick input matching ${expect} within ${timeoutMs} ms (${shown}): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  });
  return page.locator(`${QUICK_INPUT} .quick-input-box input`).first();
}

/**
 * Answers the quick pick or input box matching `expect`: types `text` (replacing what is
 * there; nothing typed keeps it) and presses Enter. Returns the value it held before.
 */
export async function answerQuickInput(page: Page, expect: RegExp, text?: string, timeoutMs = 30_000): Promise<string> {
  const input = await waitForQuickInput(page, expect, timeoutMs);
  const before = await input.inputValue();
  if (text !== undefined) {
    await input.fill(text);
    // a quick pick filters as the person types: let it settle before Enter picks the top row
    await page.waitForTimeout(300);
  }
  await input.press('Enter');
  return before;
}

/**
 * Answers the quick pick matching `expect` by typing `text` to filter it, waiting until the
 * focused row shows `text`, then Enter (a person reads before pressing Enter).
 */
export async function pickQuickItem(page: Page, expect: RegExp, text: string, timeoutMs = 30_000): Promise<void> {
  const input = await waitForQuickInput(page, expect, timeoutMs);
  await input.fill(text);
  const focused = page.locator(`${QUICK_INPUT} .monaco-list-row.focused`).filter({ hasText: text }).first();
  await focused.waitFor({ state: 'visible', timeout: 10_000 });
  await input.press('Enter');
}

/** Picks the row of the open quick pick whose label contains `label`, with the mouse. */
export async function clickQuickPickRow(page: Page, expect: RegExp, label: string, timeoutMs = 30_000): Promise<void> {
  await waitForQuickInput(page, expect, timeoutMs);
  const row = page.locator(`${QUICK_INPUT} .monaco-list-row`).filter({ hasText: label }).first();
  await row.waitFor({ state: 'attached', timeout: timeoutMs });
  // A long list draws its far rows hidden: type to narrow it, as a person would.
  if (!(await row.isVisible())) await page.locator(`${QUICK_INPUT} .quick-input-box input`).fill(label);
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click();
}

/**
 * The open quick pick as text: its title, then each row's label and description, one per line
 * (the rows the list has drawn; a long list draws only what fits).
 */
export async function quickPickText(page: Page): Promise<string> {
  return page.evaluate((sel) => {
    const w = document.querySelector(sel) as HTMLElement | null;
    if (!w) return '';
    const title = w.querySelector('.quick-input-title')?.textContent ?? '';
    const rows = Array.from(w.querySelectorAll('.monaco-list-row')).map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ').trim());
    return [title, ...rows].join('\n');
  }, QUICK_INPUT);
}

/** The label of the quick pick's focused row (what Enter would pick). */
export async function focusedQuickPickRow(page: Page): Promise<string> {
  return (await page.locator(`${QUICK_INPUT} .monaco-list-row.focused`).first().innerText()).replace(/\s+/g, ' ').trim();
}

/** Presses the Back button of a multi-step quick input. */
export async function quickInputBack(page: Page): Promise<void> {
  await page.locator(`${QUICK_INPUT} .quick-input-titlebar .codicon-quick-input-back, ${QUICK_INPUT} [aria-label="Back"]`).first().click();
}

/** Runs a command from the palette (F1) by its title, as shown there ("EO Imagery: Sign In…"). */
export async function runCommand(page: Page, title: string): Promise<void> {
  await typeInPalette(page, title, title);
  await page.locator(`${QUICK_INPUT} .quick-input-box input`).first().press('Enter');
}

/**
 * The palette's rows (each row's text, top first) for `query` typed as a person types it, read
 * once a row with `expect` is drawn (`whileShown` runs then: a screenshot); the palette is closed again.
 */
export async function paletteRows(page: Page, query: string, expect: string, whileShown?: () => Promise<unknown>): Promise<string[]> {
  await typeInPalette(page, query, expect);
  // a moment for the rows that arrive after the first (VS Code's "similar commands")
  await page.waitForTimeout(500);
  const rows = (await quickPickText(page)).split('\n').slice(1);
  await whileShown?.();
  await page.keyboard.press('Escape');
  return rows;
}

/** Opens the palette (F1) and types `query` in it, until a row with `expect` is drawn. */
async function typeInPalette(page: Page, query: string, expect: string): Promise<void> {
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`).first();
  const row = page.locator(`${QUICK_INPUT} .monaco-list-row`).filter({ hasText: expect }).first();
  // The palette lists an extension's commands once its host has read the manifest: try again
  // while the window is still starting.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const opened = await input.waitFor({ state: 'visible', timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    if (!opened) {
      // F1 went to a webview that kept it (the map, after its tests): the workbench takes the
      // focus back, as a person's click outside the webview gives it back, and F1 again
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
    }
    // a focus that settles late (a view the test just opened takes it) closes the palette as it
    // opens: the typing then finds no box, and the palette is opened again
    const typed = await input.fill(`>${query}`, { timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (
      typed &&
      (await row.waitFor({ state: 'visible', timeout: 10_000 }).then(
        () => true,
        () => false,
      ))
    )
      break;
    if (attempt === 3)
      throw new Error(`the command palette ${typed ? `does not list "${expect}" for "${query}"` : 'closed each time before it could be typed in'}`);
    await page.keyboard.press('Escape');
  }
}

/**
 * code-server's own folder dialog (a quick input, not the desktop's): `folder` typed into its
 * box once it has filled in a starting folder of its own, checked to have stuck, then `button`.
 */
export async function chooseFolder(page: Page, expect: RegExp, folder: string, button: string): Promise<void> {
  const box = await waitForQuickInput(page, expect);
  await waitUntil(
    page,
    () => ((document.querySelector('.quick-input-widget .quick-input-box input') as HTMLInputElement | null)?.value ?? '') !== '',
    undefined,
    { timeout: 15_000 },
  );
  await page.waitForTimeout(500);
  for (let attempt = 1; (await box.inputValue()) !== `${folder}/`; attempt++) {
    assert.ok(attempt <= 3, `the folder box holds ${await box.inputValue()}`);
    await box.fill(`${folder}/`);
    await page.waitForTimeout(500);
  }
  await page.locator(`${QUICK_INPUT} .quick-input-action .monaco-button, ${QUICK_INPUT} .monaco-button`).filter({ hasText: button }).first().click();
}

/**
 * The notification whose message matches `text`: its toast, or, when the toast came and went
 * unseen (the workbench hides a toast after a while, and a busy machine can hold a test that
 * long), its row in the Notifications center, which keeps every notification of the session.
 */
export async function waitForNotification(page: Page, text: RegExp, timeoutMs = 30_000): Promise<Locator> {
  const toast = page.locator('.notification-toast').filter({ hasText: text }).first();
  // The toast for 15 s, then the center's row for the rest: the center lists new notifications
  // as they come, and a toast that did not show (the Estimate lens's, after its progress toast,
  // did not in the insight e2e on code-server 4.100; why is not known) no longer costs the whole wait.
  const toastMs = Math.min(timeoutMs, 15_000);
  const seen = await toast.waitFor({ state: 'visible', timeout: toastMs }).then(
    () => true,
    (err: unknown) => err,
  );
  if (seen === true) return toast;
  const row = page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first();
  await runCommand(page, 'Notifications: Show Notifications');
  if (
    await row.waitFor({ state: 'visible', timeout: Math.max(5_000, timeoutMs - toastMs) }).then(
      () => true,
      () => false,
    )
  )
    return row;
  throw seen;
}

/** Clicks a button of a notification toast. */
export async function clickNotificationButton(toast: Locator, label: string): Promise<void> {
  const button = toast.locator('.monaco-button').filter({ hasText: label }).first();
  // A button's action closes its notification. A click can miss when the toasts move under the
  // pointer (another toast closing above this one, between Playwright's check that the button
  // stands still and its click): the notification still shows then, and the click is tried
  // again, as a person clicks again, at most twice more.
  for (let attempt = 1; ; attempt++) {
    await button.click();
    const gone = await button.waitFor({ state: 'hidden', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (gone) return;
    if (attempt === 3) throw new Error(`the notification's "${label}" button stayed after three clicks`);
  }
}

/** Closes every notification toast (keeps screenshots and later lookups clean). */
export async function clearNotifications(page: Page): Promise<void> {
  for (const toast of await page.locator('.notification-toast').all()) {
    // The close button shows on hover.
    await toast.hover({ timeout: 2_000 }).catch(() => undefined);
    await toast
      .locator('.codicon-notifications-clear')
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  }
}

/** The modal dialog, once it shows text matching `text`. */
export async function waitForDialog(page: Page, text: RegExp, timeoutMs = 30_000): Promise<Locator> {
  const dialog = page.locator('.monaco-dialog-box').filter({ hasText: text }).first();
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  return dialog;
}

export async function clickDialogButton(dialog: Locator, label: string): Promise<void> {
  await dialog.locator('.dialog-buttons .monaco-button').filter({ hasText: label }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Clicks a view's title-bar action by its label ("Refresh Projects"). */
export async function viewAction(section: Locator, label: string): Promise<void> {
  await section.locator('.pane-header').hover();
  await section.locator(`.pane-header .action-label[aria-label^="${label}"]`).first().click();
}

/** Every file under `dir` whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full, suffix) : e.name.endsWith(suffix) ? [full] : [];
  });
}

/** The user settings the editor wrote (`User/settings.json`), as text. */
export function userSettingsText(userDataDir: string): string {
  const file = path.join(userDataDir, 'User', 'settings.json');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** The "EO Imagery" output channel's log file(s), as text. */
export function extensionLogText(userDataDir: string): string {
  const files = filesUnder(path.join(userDataDir, 'logs'), '.log').filter((f) => /EO Imagery/.test(path.basename(f)));
  assert.ok(files.length > 0, `no "EO Imagery" log file under ${userDataDir}/logs`);
  return files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

/**
 * Moves the pointer to the empty editor area and waits for a hover (a row's tooltip) to go:
 * a hover left open lies over the rows and takes the next click.
 */
export async function dismissHover(page: Page): Promise<void> {
  const size = page.viewportSize();
  if (size) await page.mouse.move(size.width - 20, size.height / 2);
  await page
    .locator('.context-view .monaco-hover, .workbench-hover-container')
    .first()
    .waitFor({ state: 'hidden', timeout: 3_000 })
    .catch(() => undefined);
}

/** Right-clicks a tree row and runs a context-menu entry by its label. */
export async function rowContextMenu(page: Page, row: Locator, entry: string): Promise<void> {
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  for (let attempt = 1; ; attempt++) {
    await dismissHover(page);
    await row.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    const item = menu.locator('.action-item').filter({ hasText: entry }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    // the menu ignores a click that lands while it is still opening
    await page.waitForTimeout(300);
    await item.click();
    if (
      await menu
        .first()
        .waitFor({ state: 'hidden', timeout: 3_000 })
        .then(
          () => true,
          () => false,
        )
    )
      return;
    if (attempt === 3) throw new Error(`the context menu entry "${entry}" did not run`);
    await page.keyboard.press('Escape');
  }
}

/** The text of the active editor's visible lines. */
export async function activeEditorText(page: Page): Promise<string> {
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await lines.waitFor({ state: 'visible', timeout: 30_000 });
  return lines.innerText();
}

/** The chart's questions: the AOI's mosaics as the dates, all of them, NDVI; `overlay`: add to the open chart. */
export async function answerChartQuestions(page: Page, overlay: boolean): Promise<void> {
  const sourcePick = await waitForQuickInput(page, /Where the dates come from/, 60_000);
  await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Mosaics of' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await sourcePick.press('Enter');
  const datePick = await waitForQuickInput(page, /The dates to chart/);
  await datePick.press('Enter');
  const indexPick = await waitForQuickInput(page, /The index to chart/);
  await indexPick.fill('NDVI');
  await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'NDVI' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await indexPick.press('Enter');
  if (overlay) {
    const overlayPick = await waitForQuickInput(page, /A chart is open on the map/);
    await page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ hasText: 'Add to the open chart' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await overlayPick.press('Enter');
  }
}
