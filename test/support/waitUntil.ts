/**
 * Waits until a function run in a page (or a webview's frame) returns a truthy value, checking
 * every 100 ms. Playwright's `waitForFunction` checks on every animation frame by default: the
 * renderer then paints at 60 frames a second for as long as the wait lasts (about 80 ms of
 * Chromium CPU per second of waiting on the workbench, against 13 ms at 100 ms), which on the
 * test machine's two cores slows every other test running beside it. ESLint holds test code
 * to this helper (eslint.config.mjs).
 */
import type { Frame, Page } from 'playwright-core';
import type { PageFunction } from 'playwright-core/types/structs';

/** How often the condition is checked: well under any of our timeouts, far above a frame. */
export const POLL_MS = 100;

export async function waitUntil<R, Arg>(where: Page | Frame, condition: PageFunction<Arg, R>, arg?: Arg, options: { timeout?: number } = {}): Promise<void> {
  // eslint-disable-next-line no-restricted-syntax -- the one place that calls it, with polling
  await where.waitForFunction(condition, arg as Arg, { ...options, polling: POLL_MS });
}
