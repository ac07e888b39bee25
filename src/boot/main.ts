/**
 * The manifest's `main` (dist/main.js): runs dist/extension.js with its V8 code cache
 * (./codeCache.ts) and hands VS Code its activate() and deactivate(). esbuild.mjs builds it
 * after extension.js, with that bundle's hash.
 */
import * as path from 'node:path';
import { loadWithCodeCache } from './codeCache';

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

const bundle = loadWithCodeCache(path.join(__dirname, 'extension.js'), __EO_BUNDLE_HASH__, module);
const entry = bundle.exports as Entry;

export function activate(context: unknown): unknown {
  const api = entry.activate(context);
  setTimeout(() => void bundle.saveCache(), SAVE_AFTER_MS);
  // The test API's activation profile (test mode only) shows what the cache saved.
  const profile = (api as { testing?: { activationProfile?: Record<string, number> } } | undefined)?.testing?.activationProfile;
  if (profile) {
    profile.compile = bundle.compileMs;
    profile.codeCache = bundle.cacheAccepted ? 1 : 0;
  }
  return api;
}

export function deactivate(): void {
  entry.deactivate();
}
