/**
 * undici, loaded on first use. It is about half a megabyte of JavaScript: loading it with the
 * first request, not at activation, keeps activation fast. The extension bundle maps this
 * `require('undici')` to `dist/undici.js` (see esbuild.mjs); tests resolve it from node_modules.
 */
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

export function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('undici') as typeof Undici;
  return loaded;
}
