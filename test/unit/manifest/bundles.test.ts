// What activation loads stays what the first frame needs: dist/extension.js under its size
// limit, without the modules that load on first use (the API client in dist/client.js,
// dist/features.js and the vendor chunks), and no module in two bundles (two copies would be
// two states: two connection classes, two ApiError classes, two l10n bundles). Reads the metafiles esbuild.mjs writes to out/meta with the bundles, so it
// checks the build that was last made (the unit tier builds first).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

// out/test/unit/manifest → the repository root
const ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * dist/extension.js at most this size (minified; 61 KB when set: the connection, watcher,
 * stand-ins, errors; 130 KB while it held the client).
 */
const ACTIVATION_LIMIT_KB = 75;

/** The manifest's `main`, as a path from the repository root. */
const MAIN = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string }).main.replace(/^\.\//, '');

/** Modules that load on first use, never at activation (prefixes of paths from the repository root). */
const ON_USE = [
  'src/features.ts',
  'src/commands/',
  'src/explorer/',
  'src/panels/',
  'src/tools/',
  'src/insights/',
  'src/sandbox/',
  'src/geo/',
  'src/api/',
  'node_modules/undici/',
  'node_modules/csv-parse/',
  'node_modules/jsonc-parser/',
  'node_modules/@turf/',
];
/**
 * What activation takes from those folders: names and constants it registers stand-ins under;
 * from the API layer, the errors the connection throws and the watcher reads, the record
 * shape and state checks the watcher's followers use, the request gate the watcher counts its
 * requests through (the client takes it from extension.js: one gate for both), the
 * private-host guard, and the loader of the client (src/api/lazyClient.ts). Never the client
 * itself.
 */
const ACTIVATION_TAKES = new Set([
  'src/explorer/viewIds.ts',
  'src/panels/viewTypes.ts',
  'src/tools/toolIds.ts',
  'src/api/errors.ts',
  'src/api/shape.ts',
  'src/api/insightRunState.ts',
  'src/api/workflowState.ts',
  'src/api/privateTargets.ts',
  'src/api/requestGate.ts',
  'src/api/lazyClient.ts',
]);
/** The client's modules: in dist/client.js, which the connection requires with its first client. */
const CLIENT = ['src/api/index.ts', 'src/api/client.ts', 'src/api/transport.ts', 'src/api/undici.ts', 'src/api/paging.ts', 'src/api/workflows.ts'];

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }>; imports: { path: string; external?: boolean }[] }>;
}

function metafile(name: string): Metafile {
  const file = join(ROOT, 'out', 'meta', `${name}.json`);
  assert.ok(existsSync(file), `${file} is missing: run node esbuild.mjs (it writes the metafiles with the bundles)`);
  return JSON.parse(readFileSync(file, 'utf8')) as Metafile;
}

function bundle(meta: Metafile, outfile: string): Metafile['outputs'][string] {
  const out = meta.outputs[outfile];
  assert.ok(out, `the metafile has no ${outfile}`);
  return out;
}

describe('what activation loads (dist/extension.js) and what loads on use (dist/client.js, dist/features.js)', () => {
  const core = bundle(metafile('extension'), 'dist/extension.js');
  const client = bundle(metafile('client'), 'dist/client.js');
  const features = bundle(metafile('features'), 'dist/features.js');
  const coreModules = Object.keys(core.inputs);
  const clientModules = Object.keys(client.inputs);

  it(`keeps dist/extension.js under ${ACTIVATION_LIMIT_KB} KB`, () => {
    const kb = statSync(join(ROOT, 'dist', 'extension.js')).size / 1024;
    assert.ok(kb <= ACTIVATION_LIMIT_KB, `dist/extension.js is ${kb.toFixed(1)} KB: what grew is in out/meta/extension.json`);
  });

  it('leaves out every module that loads on use', () => {
    const pulledIn = coreModules.filter((f) => ON_USE.some((prefix) => f.startsWith(prefix)) && !ACTIVATION_TAKES.has(f));
    assert.deepEqual(pulledIn, [], 'these modules load at activation: import them from src/features.ts instead, or a leaf of names');
  });

  it('loads the API client with the first client, from dist/client.js', () => {
    for (const f of CLIENT) {
      assert.ok(
        !coreModules.includes(f),
        `${f} is in dist/extension.js: import the client's types only (import type) or load it through src/api/lazyClient.ts`,
      );
      assert.ok(clientModules.includes(f), `${f} is not in dist/client.js`);
    }
    assert.ok(
      core.imports.some((i) => i.path === './client.js' && i.external),
      'dist/extension.js does not require ./client.js (esbuild.mjs, clientFile)',
    );
    // The client takes the errors from extension.js (one ApiError class), and the features
    // take the client from client.js.
    assert.ok(clientModules.includes('eo-core:src/api/errors.ts'), 'client.js does not take src/api/errors.ts from extension.js');
    assert.ok(Object.keys(features.inputs).includes('eo-client:src/api/index.ts'), 'features.js does not take src/api/index.ts from client.js');
  });

  it('is what the manifest names as main: VS Code requires dist/extension.js itself', () => {
    assert.equal(MAIN, 'dist/extension.js');
  });

  it('requires the features by their file, on first use', () => {
    assert.ok(
      core.imports.some((i) => i.path === './features.js' && i.external),
      'dist/extension.js does not require ./features.js (esbuild.mjs, featuresFile)',
    );
    assert.ok(existsSync(join(ROOT, 'dist', 'features.js')));
  });

  it('ships every file the bundles require (.vscodeignore)', () => {
    // vsce leaves out everything but the `!` lines' globs.
    const kept = readFileSync(join(ROOT, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => new RegExp(`^${line.slice(1).trim().replace(/[.]/g, '\\.').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`));
    const required = [core, client, features].flatMap((b) => b.imports.filter((i) => i.external && i.path.startsWith('./')).map((i) => i.path));
    const bundled = [...new Set([MAIN, ...required.map((p) => `dist/${p.slice(2)}`)])];
    assert.ok(bundled.includes('dist/client.js') && bundled.includes('dist/features.js'));
    assert.deepEqual(
      bundled.filter((f) => !kept.some((k) => k.test(f))),
      [],
      'these files load at run time but the .vsix would leave them out: add them to .vscodeignore',
    );
  });

  it('holds each module in one bundle only: the others take the shared ones from their holder', () => {
    // A module another bundle holds appears as `eo-core:path` or `eo-client:path`.
    const own = (modules: string[]): string[] => modules.filter((f) => !f.includes(':'));
    const featureModules = own(Object.keys(features.inputs));
    assert.deepEqual(
      featureModules.filter((f) => coreModules.includes(f) || clientModules.includes(f)),
      [],
    );
    assert.deepEqual(
      own(clientModules).filter((f) => coreModules.includes(f)),
      [],
    );
    // And they do take some (the connection, the prompts, l10n): otherwise the test above proves nothing.
    const shared = Object.keys(features.inputs).filter((f) => f.startsWith('eo-core:'));
    for (const needed of ['src/auth/connection.ts', 'src/ui/prompts.ts', 'node_modules/@vscode/l10n/']) {
      assert.ok(
        shared.some((f) => f.slice('eo-core:'.length).startsWith(needed)),
        `features.js does not take ${needed} from extension.js`,
      );
    }
  });
  it('shares no module with a default export from dist/extension.js', () => {
    // extension.js's table holds each shared module's namespace object (esbuild.mjs, coreEntry),
    // which the bundle taking it reads as a CommonJS module: a default import would get the
    // whole namespace.
    const taken = [...Object.keys(features.inputs), ...clientModules].filter((f) => f.startsWith('eo-core:src/')).map((f) => f.slice('eo-core:'.length));
    assert.ok(taken.length > 0, 'nothing is taken from extension.js: the check proves nothing');
    assert.deepEqual(
      [...new Set(taken)].filter((f) => /^export default\b/m.test(readFileSync(join(ROOT, f), 'utf8'))),
      [],
      'export these by name: dist/extension.js shares them as namespace objects',
    );
  });
});

/**
 * What only tests use, named by text a minifier keeps (globals, message types, property
 * names): the pages' apps on `window` (test/pages), the attribute that once exposed them, the
 * map's pixel read-back and the probes' surface (test/integration/support/webviewTap.ts; not
 * `whenReady`, which is Leaflet's own).
 */
const TEST_HOOK_MARKERS = [
  'eoMap',
  'eoStac',
  'eoJobGraph',
  'data-expose-app',
  'imageryPixels',
  'imageryReports',
  'markReady',
  'pixelsAt',
  'PostRecorder',
  'MapTestHooks',
];
/** The extension's one word about the test pages: where it looks for them outside Production mode (src/panels/host.ts). */
const TEST_PAGES_PATH = 'testMedia';

function shipped(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? shipped(join(dir, e.name)) : /\.(js|css)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('nothing test-only ships in dist/', () => {
  const files = shipped(join(ROOT, 'dist'));

  it('holds no test hook in any bundle (scripts and styles, the pages and their chunks included)', () => {
    assert.ok(files.some((f) => f.endsWith(join('dist', 'media', 'map.js'))) && files.some((f) => f.endsWith(join('dist', 'features.js'))));
    const found = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return TEST_HOOK_MARKERS.filter((m) => text.includes(m)).map((m) => `${relative(ROOT, f)}: ${m}`);
    });
    assert.deepEqual(found, [], 'test hooks belong in test/ (test/pages, test/integration/support/webviewTap.ts), not in the bundles');
  });

  it('names the test pages only where the panels pick their page (outside Production mode)', () => {
    const naming = files.filter((f) => readFileSync(f, 'utf8').includes(TEST_PAGES_PATH)).map((f) => relative(ROOT, f));
    assert.deepEqual(naming, [join('dist', 'features.js')]);
    assert.ok(!readdirSync(join(ROOT, 'dist', 'media')).some((f) => f.startsWith('test')), 'no test page in dist/media');
  });
});
