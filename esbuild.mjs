// Bundles the extension (one CommonJS file, `vscode` external), the sandbox (loaded lazily by
// "Try the sandbox" and run by `npm run sandbox`) and one script per webview.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const production = args.includes('--production');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const common = {
  bundle: true,
  minify: true,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * undici is half the size of everything else together: the extension requires it on its first
 * request from dist/undici.js (src/api/undici.ts), so activation does not parse it.
 * @type {import('esbuild').Plugin}
 */
const lazyUndici = {
  name: 'lazy-undici',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/** @type {Array<{name: string, options: import('esbuild').BuildOptions}>} */
const targets = [
  {
    name: 'extension',
    options: {
      entryPoints: ['src/extension.ts'],
      outfile: 'dist/extension.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode', './sandbox.js'],
      plugins: [lazyUndici],
      // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow.
      mainFields: ['module', 'main'],
    },
  },
  {
    name: 'extension',
    options: {
      entryPoints: ['src/api/undiciBundle.ts'],
      outfile: 'dist/undici.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
    },
  },
  {
    name: 'sandbox',
    options: {
      entryPoints: ['src/sandbox/index.ts'],
      outfile: 'dist/sandbox.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
    },
  },
  {
    name: 'sandbox',
    options: {
      entryPoints: ['src/sandbox/cli.ts'],
      outfile: 'dist/sandbox-cli.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
    },
  },
  // Webview scripts: one browser bundle each, no Node built-ins.
  ...['map', 'stacItem', 'orderSummary'].map((name) => ({
    name: 'webview',
    options: {
      entryPoints: [`media/${name}/main.ts`],
      outfile: `dist/media/${name}.js`,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      loader: { '.png': 'dataurl', '.svg': 'dataurl' },
    },
  })),
  // Natural Earth outlines for the offline base layer of the map and STAC panels: a script of
  // its own (about 100 KB) so the map bundle stays small and both panels share one copy.
  {
    name: 'webview',
    options: {
      entryPoints: ['media/shared/outlines.ts'],
      outfile: 'dist/media/outlines.js',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
    },
  },
];

const selected = targets.filter(
  (t) => (!only || t.name === only) && existsSync(t.options.entryPoints[0]),
);

if (watch) {
  for (const t of selected) {
    const ctx = await esbuild.context({ ...common, ...t.options });
    await ctx.watch();
  }
  console.log(`watching ${selected.length} bundles`);
} else {
  await Promise.all(selected.map((t) => esbuild.build({ ...common, ...t.options })));
}
