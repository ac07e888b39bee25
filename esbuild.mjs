// Bundles the extension (one CommonJS file, `vscode` external), the sandbox (loaded lazily by
// "Try the sandbox" and run by `npm run sandbox`) and one script per webview.
import * as esbuild from 'esbuild';

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
const LAZY_VENDOR = ['csv-parse/sync', 'jsonc-parser', '@turf/boolean-intersects', '@turf/area'];
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
      plugins: [lazyVendor],
      // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow.
      mainFields: ['module', 'main'],
    },
  },
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

if (watch) {
  for (const t of selected) {
    const ctx = await esbuild.context({ ...common, ...t.options });
    await ctx.watch();
  }
  console.log(`watching ${selected.length} bundles`);
} else {
  await Promise.all(selected.map((t) => esbuild.build({ ...common, ...t.options })));
}
