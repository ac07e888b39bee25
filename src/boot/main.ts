/**
 * The manifest's `main` (dist/main.js): runs dist/extension.js with its V8 code cache
 * (./codeCache.ts) and hands VS Code its activate() and deactivate(). esbuild.mjs builds it
 * after extension.js, with that bundle's hash.
 */
import * as path from 'node:path';
import { loadWithCodeCache } from './codeCache';
import { loadSoon } from './loadSoon';

declare const __EO_BUNDLE_HASH__: string;

/** What dist/extension.js exports to VS Code (src/extension.ts). */
interface Entry {
  activate(context: unknown): unknown;
  deactivate(): void;
}

/**
 * After activation has run (its functions are compiled, so the cache holds them too), and
 * after the window's own start-up work: the cache is made only on a start that had none.
 */
const SAVE_AFTER_MS = 1000;

/**
 * Late enough that the extension host has sent its request for our context (its writer's
 * timer fires a millisecond after this file is required, then compresses and writes), early
 * enough to be done before the answer comes back (a round trip of several milliseconds).
 * See ./loadSoon.ts.
 */
const LOAD_AFTER_MS = 2;

const bundle = loadSoon(() => loadWithCodeCache(path.join(__dirname, 'extension.js'), __EO_BUNDLE_HASH__, module), LOAD_AFTER_MS);
let activated = false;

export function activate(context: unknown): unknown {
  const early = bundle.loaded;
  const loaded = bundle.get();
  activated = true;
  const api = (loaded.exports as Entry).activate(context);
  setTimeout(() => void loaded.saveCache(), SAVE_AFTER_MS);
  // The test API's activation profile (test mode only) shows what the cache saved.
  const profile = (api as { testing?: { activationProfile?: Record<string, number> } } | undefined)?.testing?.activationProfile;
  if (profile) {
    profile.compile = loaded.compileMs;
    profile.codeCache = loaded.cacheAccepted ? 1 : 0;
    // 1: loaded while the extension host waited for the context; 0: by activate() itself.
    profile.loadedEarly = early ? 1 : 0;
  }
  return api;
}

export function deactivate(): void {
  bundle.cancel();
  if (activated) (bundle.get().exports as Entry).deactivate();
}
