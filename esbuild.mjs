// Bundles the extension (CommonJS, `vscode` external) in three parts: dist/extension.js, what
// activation loads, dist/client.js, the API client, loaded with the first client, and
// dist/features.js, everything else, loaded on first use (see `buildExtension` below); the sandbox (loaded lazily by "Try the sandbox" and run by
// `npm run sandbox`) and one script per webview.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * Libraries activation does not need: the extension requires them on first use (src/lazy.ts)
 * from their own files under dist/vendor, so V8 neither compiles nor runs them at activation.
 */
const LAZY_VENDOR = ['csv-parse/sync', 'jsonc-parser', '@turf/boolean-intersects'];
const vendorFile = (pkg) => `vendor/${pkg.replace(/^@/, '').replace(/\//g, '-')}.js`;
/**
 * Our own modules that wrap a library and load the same way: the `require` path our code uses,
 * the file, and the chunk. undici's entry point loads far more than the client uses (fetch,
 * WebSocket, the cache): src/api/undiciCore.ts takes the parts it does.
 */
const LAZY_LOCAL = [{ request: './undiciCore', entry: 'src/api/undiciCore.ts', chunk: 'undici' }];
/**
 * undici's HTTP parser built without WebAssembly SIMD (72 KB of base64). undici parses with
 * its SIMD build, which undici.js holds, and requires this one only where SIMD is off (Node
 * before 24.12 on ppc64, UNDICI_NO_WASM_SIMD=1) or fails to compile: a file of its own, next
 * to undici.js, so the first request does not load both.
 */
const LLHTTP_FALLBACK = { request: '../llhttp/llhttp-wasm.js', module: 'undici/lib/llhttp/llhttp-wasm.js', chunk: 'llhttp-wasm' };
/** @type {import('esbuild').Plugin} */
const llhttpFallback = {
  name: 'llhttp-fallback',
  setup(build) {
    const filter = new RegExp(`^${LLHTTP_FALLBACK.request.replace(/[./]/g, '\\$&')}$`);
    build.onResolve({ filter }, (args) =>
      /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: `./${LLHTTP_FALLBACK.chunk}.js`, external: true } : undefined,
    );
  },
};

/** @type {import('esbuild').Plugin} */
const lazyVendor = {
  name: 'lazy-vendor',
  setup(build) {
    const names = new Set(LAZY_VENDOR);
    build.onResolve({ filter: /^[@a-z]/ }, (args) => (names.has(args.path) ? { path: `./${vendorFile(args.path)}`, external: true } : undefined));
    for (const { request, chunk } of LAZY_LOCAL) {
      const filter = new RegExp(`^${request.replace(/[.]/g, '\\.')}$`);
      build.onResolve({ filter }, () => ({ path: `./${vendorFile(chunk)}`, external: true }));
    }
  },
};

const ROOT = path.dirname(fileURLToPath(import.meta.url));
/** The extension bundles' metafiles, for test/unit/manifest/bundles.test.ts (out/ is not shipped). */
const META_DIR = 'out/meta';

/** What the extension's bundles are built with. */
const extensionOptions = {
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', './sandbox.js'],
  // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow.
  mainFields: ['module', 'main'],
};

/**
 * The extension in three CommonJS bundles. esbuild cannot split a CommonJS build into chunks,
 * and two bundles that each hold a copy of a module hold two copies of its state (its classes,
 * so `instanceof` fails across them; its singletons, such as @vscode/l10n's bundle). So:
 *
 * 1. dist/extension.js is built from src/extension.ts (what activation needs: connection,
 *    prompts, status bar, watcher, and the stubs of src/deferred.ts) and exports every module
 *    the others take from it, by path, as `__eoShared`;
 * 2. dist/client.js, the API client (src/api/index.ts and what it imports), which the
 *    connection requires with its first client (src/api/lazyClient.ts): its imports of
 *    extension.js's modules (the errors, l10n) are taken from there, and it exports its own
 *    modules the same way;
 * 3. dist/features.js is built from src/features.ts and takes the modules of both.
 *
 * An import that resolves to a module of another bundle becomes
 * `require('./extension.js').__eoShared[path]` (or client.js's): Node's module cache hands
 * back the instance already loaded, so each module exists in exactly one bundle.
 */
/** extension.js requires the features by their file: `require('./features')` in src/extension.ts. */
const featuresFile = {
  name: 'features-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/features$/ }, () => ({ path: './features.js', external: true }));
  },
};

/** The client chunk's entry, and the one module that requires it (by `./index`, lazily). */
const CLIENT_ENTRY = 'src/api/index.ts';
const CLIENT_LOADER = path.join('src', 'api', 'lazyClient.ts');
/** @type {import('esbuild').Plugin} */
const clientFile = {
  name: 'client-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/index$/ }, (args) => (args.importer.endsWith(CLIENT_LOADER) ? { path: './client.js', external: true } : undefined));
  },
};

/** The inputs of a build that are files of the repository (not another bundle's modules). */
const ownModules = (result) => new Set(Object.keys(result.metafile.inputs).filter((f) => !f.includes(':')));
/** The modules a build takes from the bundle whose namespace is `ns`. */
const takenFrom = (result, ns) =>
  Object.keys(result.metafile.inputs)
    .filter((f) => f.startsWith(`${ns}:`))
    .map((f) => f.slice(ns.length + 1));

/**
 * The entry of a bundle that others take modules from: `head`, then the table. require() keeps
 * every export of a shared module (esbuild would drop the ones the bundle itself leaves unused).
 */
const tableEntry = (head, shared) =>
  [...head, 'const __eoShared = {', ...shared.map((f) => `  ${JSON.stringify(f)}: require(${JSON.stringify(`./${f}`)}),`), '};'].join('\n');

/**
 * extension.js's entry, in import/export form: esbuild then hoists every module of the bundle
 * into one scope, evaluated in import order as the script runs. The require() form of
 * `tableEntry` makes each module a closure run on first require, with a getter per export:
 * V8 parses each such closure twice (once with the script, once when called), and activation
 * runs them all. A namespace object used as a value keeps every export of its module.
 */
const coreEntry = (shared) => {
  // A CommonJS package (@vscode/l10n) is taken as its module.exports, as require() gives it.
  const ours = (f) => f.startsWith('src/');
  const value = (f, i) => (ours(f) ? `__eoModule${i}` : `require(${JSON.stringify(`./${f}`)})`);
  return [
    `export { activate, deactivate } from ${JSON.stringify('./src/extension.ts')};`,
    ...shared.flatMap((f, i) => (ours(f) ? [`import * as __eoModule${i} from ${JSON.stringify(`./${f}`)};`] : [])),
    'export const __eoShared = {',
    ...shared.map((f, i) => `  ${JSON.stringify(f)}: ${value(f, i)},`),
    '};',
  ].join('\n');
};

async function buildExtension(options) {
  const base = { ...common, ...extensionOptions, ...options, metafile: true };
  const corePlugins = [lazyVendor, featuresFile, clientFile];
  const coreProbe = await esbuild.build({ ...base, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', plugins: corePlugins, write: false });
  const core = { file: './extension.js', ns: 'eo-core', modules: ownModules(coreProbe) };
  const clientPlugins = [lazyVendor, sharedWith([core])];
  const clientProbe = await esbuild.build({ ...base, entryPoints: [CLIENT_ENTRY], outfile: 'dist/client.js', plugins: clientPlugins, write: false });
  const client = { file: './client.js', ns: 'eo-client', modules: ownModules(clientProbe) };
  const features = await esbuild.build({
    ...base,
    entryPoints: ['src/features.ts'],
    outfile: 'dist/features.js',
    plugins: [lazyVendor, sharedWith([core, client])],
  });
  // Only the modules others take are exported (and so kept whole); the rest stay tree-shaken.
  const fromClient = [...new Set([CLIENT_ENTRY, ...takenFrom(features, client.ns)])];
  const clientBuild = await esbuild.build({
    ...base,
    stdin: {
      contents: tableEntry([], fromClient).concat(`\nmodule.exports = { ...__eoShared[${JSON.stringify(CLIENT_ENTRY)}], __eoShared };`),
      resolveDir: ROOT,
      sourcefile: 'client-entry.js',
      loader: 'js',
    },
    outfile: 'dist/client.js',
    plugins: clientPlugins,
  });
  const fromCore = [...new Set([...takenFrom(features, core.ns), ...takenFrom(clientBuild, core.ns)])].sort();
  const coreBuild = await esbuild.build({
    ...base,
    stdin: { contents: coreEntry(fromCore), resolveDir: ROOT, sourcefile: 'extension-entry.js', loader: 'js' },
    outfile: 'dist/extension.js',
    plugins: corePlugins,
  });
  mkdirSync(META_DIR, { recursive: true });
  writeFileSync(`${META_DIR}/extension.json`, JSON.stringify(coreBuild.metafile));
  writeFileSync(`${META_DIR}/client.json`, JSON.stringify(clientBuild.metafile));
  writeFileSync(`${META_DIR}/features.json`, JSON.stringify(features.metafile));
}

/**
 * Resolves imports of modules that another bundle holds to its `__eoShared` table (see
 * buildExtension). `bundles`: the file each is required by, the namespace its modules get in
 * this build's metafile, and its modules.
 */
function sharedWith(bundles) {
  return {
    name: 'shared-with',
    setup(build) {
      for (const { file, ns } of bundles) {
        const filter = new RegExp(`^${file.replace(/[.]/g, '\\.')}$`);
        build.onResolve({ filter, namespace: ns }, () => ({ path: file, external: true }));
        build.onLoad({ filter: /.*/, namespace: ns }, (args) => ({
          contents: `module.exports = require(${JSON.stringify(file)}).__eoShared[${JSON.stringify(args.path)}];`,
          loader: 'js',
          resolveDir: ROOT,
        }));
      }
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.eoShared || args.kind === 'entry-point' || args.namespace !== 'file' || args.path === 'vscode') return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { eoShared: true } });
        if (found.errors.length || found.external || !found.path) return undefined;
        const rel = path.relative(ROOT, found.path).split(path.sep).join('/');
        const holder = bundles.find((b) => b.modules.has(rel));
        return holder ? { path: rel, namespace: holder.ns } : undefined;
      });
    },
  };
}

/**
 * The pages as tests and benchmarks load them (test/pages: each page's app on `window`, the
 * map's pixel read-back): built into out/testMedia, never into dist/, and served by the
 * extension only when VS Code runs it for its tests or its development (src/panels/host.ts).
 * They load the chunks and the outlines from beside themselves, so each of those builds puts
 * a copy there too.
 */
const TEST_PAGES_DIR = 'out/testMedia';
/** @type {import('esbuild').Plugin} */
const besideTestPages = {
  name: 'beside-test-pages',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length || production) return;
      const out = build.initialOptions.outfile;
      mkdirSync(TEST_PAGES_DIR, { recursive: true });
      for (const f of [out, `${out}.map`, out.replace(/\.js$/, '.css'), out.replace(/\.js$/, '.css.map')]) {
        if (existsSync(f)) copyFileSync(f, path.join(TEST_PAGES_DIR, path.basename(f)));
      }
    });
  },
};

/** @type {Array<{name: string, options: import('esbuild').BuildOptions}>} */
const targets = [
  ...LAZY_VENDOR.map((pkg) => ({
    name: 'extension',
    options: {
      stdin: { contents: `module.exports = require(${JSON.stringify(pkg)});`, resolveDir: '.', sourcefile: `${pkg}.js` },
      outfile: `dist/${vendorFile(pkg)}`,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      mainFields: ['module', 'main'],
    },
  })),
  ...LAZY_LOCAL.map(({ entry, chunk }) => ({
    name: 'extension',
    options: {
      entryPoints: [entry],
      outfile: `dist/${vendorFile(chunk)}`,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      plugins: [llhttpFallback],
    },
  })),
  {
    name: 'extension',
    options: {
      stdin: { contents: `module.exports = require(${JSON.stringify(LLHTTP_FALLBACK.module)});`, resolveDir: '.', sourcefile: 'llhttp-wasm.js' },
      outfile: `dist/${vendorFile(LLHTTP_FALLBACK.chunk)}`,
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
  // The check command (`npm run check`, the package's bin, the VS Code task): Node only, no vscode.
  {
    name: 'extension',
    options: {
      entryPoints: ['src/cli/check.ts'],
      outfile: 'dist/check.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      mainFields: ['module', 'main'],
      banner: { js: '#!/usr/bin/env node' },
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
  // Webview scripts: one browser bundle each, no Node built-ins. The job graph's carries dagre
  // (its layout) and loads only when a graph opens.
  ...['map', 'stacItem', 'jobGraph'].map((name) => ({
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
  ...(production ? [] : ['map', 'stacItem', 'jobGraph']).map((name) => ({
    name: 'webview',
    options: {
      entryPoints: [`test/pages/${name}.ts`],
      outfile: `${TEST_PAGES_DIR}/${name}.js`,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      loader: { '.png': 'dataurl', '.svg': 'dataurl' },
    },
  })),
  // The inspector's and histogram's charts (uPlot and its stylesheet): loaded when first opened.
  {
    name: 'webview',
    options: {
      entryPoints: ['media/map/analysis/chunk.ts'],
      outfile: 'dist/media/analysis.js',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      plugins: [besideTestPages],
    },
  },
  // The timelapse encoders (gifenc; Mediabunny's WebM muxer over WebCodecs): loaded on the first export.
  {
    name: 'webview',
    options: {
      entryPoints: ['media/map/timelapse/chunk.ts'],
      outfile: 'dist/media/timelapse.js',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      plugins: [besideTestPages],
    },
  },
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
      plugins: [besideTestPages],
    },
  },
];

/**
 * geotiff.js pieces the map cannot use: LERC and ZSTD decoders need WebAssembly (the webview's
 * CSP has no 'wasm-unsafe-eval'), and its default worker factory loads a module worker by URL
 * (we start our own from a blob). They become modules that say so when reached.
 */
/** @type {import('esbuild').Plugin} */
const geotiffTrim = {
  name: 'geotiff-trim',
  setup(build) {
    build.onResolve({ filter: /^\.\/(lerc|zstd)\.js$/ }, (args) =>
      /geotiff[\\/]dist-module[\\/]compression$/.test(args.resolveDir) ? { path: args.path, namespace: 'geotiff-stub' } : undefined,
    );
    build.onResolve({ filter: /^\.\/worker\/create\.js$/ }, (args) =>
      /geotiff[\\/]dist-module$/.test(args.resolveDir) ? { path: 'create', namespace: 'geotiff-stub' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'geotiff-stub' }, (args) => ({
      contents:
        args.path === 'create'
          ? 'export default function create() { throw new Error("geotiff workers are started by the imagery chunk"); }'
          : `export const zstd = { init: async () => undefined };
export default class Unsupported { constructor() { throw new Error(${JSON.stringify(`${args.path.includes('lerc') ? 'LERC' : 'ZSTD'} compression is not supported by the map (it needs WebAssembly); convert the file with DEFLATE or LZW`)}); } }`,
      loader: 'js',
    }));
  },
};

/** The decoder worker, built first: the imagery chunk embeds its source and starts it from a blob URL. */
async function decoderWorkerSource() {
  const r = await esbuild.build({
    ...common,
    sourcemap: false,
    write: false,
    entryPoints: ['media/map/imagery/decodeWorker.ts'],
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    plugins: [geotiffTrim],
  });
  return r.outputFiles[0].text;
}

if (!only || only === 'webview') {
  targets.push({
    name: 'webview',
    options: {
      entryPoints: ['media/map/imagery/chunk.ts'],
      outfile: 'dist/media/imagery.js',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      plugins: [geotiffTrim, besideTestPages],
      define: { __DECODER_WORKER_SOURCE__: JSON.stringify(await decoderWorkerSource()) },
    },
  });
}

const selected = targets.filter((t) => !only || t.name === only);
const withExtension = !only || only === 'extension';

if (watch) {
  for (const t of selected) {
    const ctx = await esbuild.context({ ...common, ...t.options });
    await ctx.watch();
  }
  // The three bundles depend on each other's module lists: rebuilt together, on any change under src/.
  if (withExtension) {
    await buildExtension({});
    const ctx = await esbuild.context({
      ...common,
      entryPoints: ['src/extension.ts', CLIENT_ENTRY, 'src/features.ts'],
      outdir: 'out/watch-probe',
      write: false,
      ...extensionOptions,
      plugins: [lazyVendor, { name: 'rebuild-extension', setup: (b) => b.onEnd(() => buildExtension({}).catch((e) => console.error(e.message))) }],
    });
    await ctx.watch();
  }
  console.log(`watching ${selected.length + (withExtension ? 2 : 0)} bundles`);
} else {
  await Promise.all([...selected.map((t) => esbuild.build({ ...common, ...t.options })), withExtension ? buildExtension({}) : undefined]);
}
