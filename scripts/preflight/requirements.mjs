// What `npm test`, `npm start` and `.ci/run` need from the machine: the one list in the
// repository. Each entry names the piece as a person would look for it, why it is needed, the
// Debian packages that provide it (none where no one package is right for every machine), how
// scripts/preflight/probe.mjs finds it, and the purposes that need it.

/**
 * What a run is for. `start`: `npm start` (code-server, built on first use). `check`:
 * `npm start --check` (start, and headless Chromium looks at it). `unit`, `integration`,
 * `e2e`: the test tiers. `bench`: `npm run bench` (the webviews, code-server, GDAL's
 * baselines, and ImageMagick for the timelapse's).
 */
export const PURPOSES = ['start', 'check', 'unit', 'integration', 'e2e', 'bench'];

/** `npm test` and `.ci/run`: every tier. */
export const TEST = ['unit', 'integration', 'e2e'];

// code-server's native modules are built on this machine the first time it is installed.
const CODE_SERVER = ['start', 'check', 'integration', 'e2e', 'bench'];
// Headless Chromium: the webview tests (unit tier), the integration harness's workbench, e2e.
const BROWSER = ['check', 'unit', 'integration', 'e2e', 'bench'];
// GDAL reads the sandbox's GeoTIFFs and writes test scenes (unit and integration tiers).
const GDAL = ['unit', 'integration', 'bench'];

/** The Python that has Debian's GDAL bindings; a different python3 may come first on PATH. */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/**
 * @typedef {{ node: number }
 *   | { nodeHeaders: string }
 *   | { files: string[] }
 *   | { commands: string[] }
 *   | { python: string, modules: string[] }
 *   | { envFile: string, fallback: string }} Probe
 *   `node`: the running Node's major version; `nodeHeaders`: node_version.h of that same major;
 *   `files`: every path exists; `commands`: every name is an executable on PATH; `python`:
 *   that interpreter imports every module; `envFile`: the file named by that environment
 *   variable, or `fallback` when it is unset.
 * @typedef {{ id: string, what: string, why: string, packages: string[], howTo?: string, probe: Probe, for: string[] }} Requirement
 */

/** @type {Requirement[]} */
export const REQUIREMENTS = [
  {
    id: 'node',
    what: 'Node.js 20',
    why: 'code-server 4.100.3 runs on it, and its native modules are built for it',
    packages: [],
    howTo: "install Node.js 20 (NodeSource's nodejs package, or nodejs.org)",
    probe: { node: 20 },
    for: CODE_SERVER,
  },
  {
    id: 'node-headers',
    what: "the running Node's headers in /usr/include/node",
    why: "code-server's native modules are built against them",
    packages: [],
    howTo: "NodeSource's nodejs package has them; with Debian's own Node 20, install libnode-dev",
    probe: { nodeHeaders: '/usr/include/node/node_version.h' },
    for: CODE_SERVER,
  },
  {
    id: 'build-tools',
    what: 'make and g++',
    why: "to build code-server's native modules",
    packages: ['build-essential'],
    probe: { commands: ['make', 'g++'] },
    for: CODE_SERVER,
  },
  {
    id: 'python3',
    what: 'python3 on PATH',
    why: 'node-gyp runs it to build native modules',
    packages: ['python3'],
    probe: { commands: ['python3'] },
    for: CODE_SERVER,
  },
  {
    id: 'kerberos-headers',
    what: 'the Kerberos headers (krb5.h, gssapi/gssapi.h)',
    why: "code-server's kerberos module is built against them",
    packages: ['libkrb5-dev'],
    probe: { files: ['/usr/include/krb5.h', '/usr/include/gssapi/gssapi.h'] },
    for: CODE_SERVER,
  },
  {
    id: 'ripgrep',
    what: 'ripgrep (/usr/bin/rg)',
    why: "VS Code's search runs it; it replaces the binary code-server would download",
    packages: ['ripgrep'],
    probe: { files: ['/usr/bin/rg'] },
    for: CODE_SERVER,
  },
  {
    id: 'chromium',
    what: 'Chromium (/usr/bin/chromium, or CHROMIUM_PATH)',
    why: 'the tests (and npm start --check) see the workbench and the webviews through it',
    packages: ['chromium'],
    probe: { envFile: 'CHROMIUM_PATH', fallback: '/usr/bin/chromium' },
    for: BROWSER,
  },
  {
    id: 'fonts-liberation',
    what: 'the Liberation fonts',
    why: 'Chromium renders text and screenshots with them',
    packages: ['fonts-liberation'],
    probe: { files: ['/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'] },
    for: BROWSER,
  },
  {
    id: 'fonts-dejavu',
    what: 'the DejaVu fonts',
    why: 'Chromium falls back to them for symbols and other scripts',
    packages: ['fonts-dejavu-core'],
    probe: { files: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'] },
    for: BROWSER,
  },
  {
    id: 'gdal-tools',
    what: "GDAL's tools (gdalinfo, gdallocationinfo)",
    why: "an independent reader of the sandbox's GeoTIFFs",
    packages: ['gdal-bin'],
    probe: { commands: ['gdalinfo', 'gdallocationinfo'] },
    for: GDAL,
  },
  {
    id: 'gdal-python',
    what: `GDAL's Python bindings and COG validator for ${DEBIAN_PYTHON}`,
    why: 'the tests write scenes and validate Cloud-Optimized GeoTIFFs with them',
    packages: ['python3-gdal'],
    probe: { python: DEBIAN_PYTHON, modules: ['osgeo.gdal', 'osgeo_utils.samples.validate_cloud_optimized_geotiff'] },
    for: GDAL,
  },
  {
    id: 'numpy',
    what: `NumPy for ${DEBIAN_PYTHON}`,
    why: "the tests' GDAL scripts compute with it",
    packages: ['python3-numpy'],
    probe: { python: DEBIAN_PYTHON, modules: ['numpy'] },
    for: GDAL,
  },
  {
    id: 'python-requests',
    what: `requests for ${DEBIAN_PYTHON}`,
    why: 'a test runs the snippet that Copy as Python writes',
    packages: ['python3-requests'],
    probe: { python: DEBIAN_PYTHON, modules: ['requests'] },
    for: ['integration'],
  },
  {
    id: 'imagemagick',
    what: "ImageMagick's convert (/usr/bin/convert)",
    why: "the timelapse benchmark's baseline assembles its GIF with it",
    packages: ['imagemagick'],
    probe: { files: ['/usr/bin/convert'] },
    for: ['bench'],
  },
];

/** Every Debian package `npm test` needs, in the list's order (the README quotes them from here). */
export const ALL_PACKAGES = [...new Set(REQUIREMENTS.filter((r) => r.for.some((p) => TEST.includes(p))).flatMap((r) => r.packages))];
