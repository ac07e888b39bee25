// Bundles the extension (CommonJS, `vscode` external) in two parts: dist/extension.js, what
// activation loads, and dist/features.js, everything else, loaded on first use (see
// `sharedWithCore` below); the sandbox (loaded lazily by "Try the sandbox" and run by
// `npm run sandbox`) and one script per webview.
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
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
/** The two halves' metafiles, for test/unit/manifest/bundles.test.ts (out/ is not shipped). */
const META_DIR = 'out/meta';

/** What both halves of the extension are built with. */
const extensionOptions = {
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', './sandbox.js'],
  // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow.
  mainFields: ['module', 'main'],
};

/**
 * The extension in two CommonJS bundles. esbuild cannot split a CommonJS build into chunks, and
 * two bundles that each hold a copy of a module hold two copies of its state (its classes,
 * so `instanceof` fails across them; its singletons, such as @vscode/l10n's bundle). So:
 *
 * 1. dist/extension.js is built from src/extension.ts (what activation needs: connection,
 *    prompts, status bar, watcher, and the stubs of src/deferred.ts) and exports every module
 *    it contains, by path, as `__eoShared`;
 * 2. dist/features.js is built from src/features.ts; any import that resolves to a module of
 *    extension.js becomes `require('./extension.js').__eoShared[path]` (Node's module cache
 *    hands back the instance VS Code loaded), so each module exists in exactly one bundle.
 */
/** extension.js requires the features by their file: `require('./features')` in src/extension.ts. */
const featuresFile = {
  name: 'features-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/features$/ }, () => ({ path: './features.js', external: true }));
  },
};

async function buildExtension(options) {
  const base = { ...common, ...extensionOptions, ...options, metafile: true };
  const coreProbe = await esbuild.build({
    ...base,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    plugins: [lazyVendor, featuresFile],
    write: false,
  });
  const inCore = new Set(Object.keys(coreProbe.metafile.inputs).filter((f) => !f.includes(':')));
  const features = await esbuild.build({
    ...base,
    entryPoints: ['src/features.ts'],
    outfile: 'dist/features.js',
    plugins: [lazyVendor, sharedWithCore(inCore)],
  });
  // Only the modules features.js takes are exported (and so kept whole); the rest stay tree-shaken.
  const shared = Object.keys(features.metafile.inputs)
    .filter((f) => f.startsWith(`${SHARED}:`))
    .map((f) => f.slice(SHARED.length + 1));
  // The entry of extension.js: activate/deactivate, then the table. require() keeps every
  // export of a shared module (esbuild would drop the ones extension.js itself leaves unused).
  const entry = [
    `const extension = require(${JSON.stringify('./src/extension.ts')});`,
    'exports.activate = extension.activate;',
    'exports.deactivate = extension.deactivate;',
    'exports.__eoShared = {',
    ...shared.map((f) => `  ${JSON.stringify(f)}: require(${JSON.stringify(`./${f}`)}),`),
    '};',
  ].join('\n');
  const core = await esbuild.build({
    ...base,
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'extension-entry.js', loader: 'js' },
    outfile: 'dist/extension.js',
    plugins: [lazyVendor, featuresFile],
  });
  mkdirSync(META_DIR, { recursive: true });
  writeFileSync(`${META_DIR}/extension.json`, JSON.stringify(core.metafile));
  writeFileSync(`${META_DIR}/features.json`, JSON.stringify(features.metafile));
}

/** The namespace of features.js's imports that resolve to extension.js. */
const SHARED = 'eo-core';

/** Resolves imports of modules that extension.js holds to its `__eoShared` table (see buildExtension). */
function sharedWithCore(shared) {
  return {
    name: 'shared-with-core',
    setup(build) {
      build.onResolve({ filter: /^\.\/extension\.js$/, namespace: SHARED }, () => ({ path: './extension.js', external: true }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.eoShared || args.kind === 'entry-point' || args.namespace !== 'file' || args.path === 'vscode') return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { eoShared: true } });
        if (found.errors.length || found.external || !found.path) return undefined;
        const rel = path.relative(ROOT, found.path).split(path.sep).join('/');
        return shared.has(rel) ? { path: rel, namespace: SHARED } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: SHARED }, (args) => ({
        contents: `module.exports = require("./extension.js").__eoShared[${JSON.stringify(args.path)}];`,
        loader: 'js',
        resolveDir: ROOT,
      }));
    },
  };
}

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
    },
  })),
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
  // The inspector's and histogram's charts (uPlot and its stylesheet): loaded when first opened.
  {
    name: 'webview',
    options: {
      entryPoints: ['media/map/analysis/chunk.ts'],
      outfile: 'dist/media/analysis.js',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
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
      plugins: [geotiffTrim],
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
  // The two halves depend on each other's module list: rebuilt together, on any change under src/.
  if (withExtension) {
    await buildExtension({});
    const ctx = await esbuild.context({
      ...common,
      entryPoints: ['src/extension.ts', 'src/features.ts'],
      outdir: 'out/watch-probe',
      write: false,
      ...extensionOptions,
      plugins: [lazyVendor, { name: 'rebuild-halves', setup: (b) => b.onEnd(() => buildExtension({}).catch((e) => console.error(e.message))) }],
    });
    await ctx.watch();
  }
  console.log(`watching ${selected.length + (withExtension ? 2 : 0)} bundles`);
} else {
  await Promise.all([...selected.map((t) => esbuild.build({ ...common, ...t.options })), withExtension ? buildExtension({}) : undefined]);
}
