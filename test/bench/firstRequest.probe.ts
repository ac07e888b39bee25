/**
 * Which lazily loaded files the extension's first request pulls in, for the "extension host
 * at first request" size figure of `npm run bench`. It makes the request the extension makes
 * first (the sign-in check: the first project page, one record) with the client's own code,
 * loaded as the connection loads it (src/api/lazyClient.ts), against the sandbox CLI in its
 * own process, and records every bare module name our code `require()`s until the answer is
 * in, and each file of dist/ that one of our own modules, or undici's parser fallback, is
 * built as (esbuild.mjs). Each bare name the build externalises is a file under dist/vendor;
 * bench.mjs adds those files and the chunks to extension.js and features.js.
 *
 * Prints one JSON line: {"required": ["undici", ...], "chunks": ["dist/client.js", ...]}.
 */
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { startSandboxCli } from '../e2e/sandboxCli';

type Load = (request: string, parent: { filename?: string } | null, isMain: boolean) => unknown;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('node:module') as { _load: Load };

const OUR_CODE = path.join(__dirname, '..', '..', 'src') + path.sep;
/**
 * Modules that esbuild.mjs builds as a file of their own: the `require` that loads one, the
 * module that makes it (ours, or undici's, for its parser without WebAssembly SIMD), the file.
 */
const CHUNKS = [
  { request: './undiciCore', parent: path.join('src', 'api', 'undici.js'), file: 'dist/vendor/undici.js' },
  { request: './index', parent: path.join('src', 'api', 'lazyClient.js'), file: 'dist/client.js' },
  { request: '../llhttp/llhttp-wasm.js', parent: path.join('undici', 'lib', 'dispatcher', 'client-h1.js'), file: 'dist/vendor/llhttp-wasm.js' },
];
const required = new Set<string>();
const chunks = new Set<string>();
const original = Module._load;
Module._load = function (request, parent, isMain) {
  const bare = !request.startsWith('.') && !path.isAbsolute(request) && !request.startsWith('node:') && !builtinModules.includes(request);
  const ours = parent?.filename?.startsWith(OUR_CODE) === true;
  // what a chunk's own module requires is inside that chunk: only the chunk itself counts
  const inChunk = parent?.filename?.endsWith(`${path.sep}undiciCore.js`) === true;
  const chunk = CHUNKS.find((c) => c.request === request && parent?.filename?.endsWith(c.parent));
  if (chunk) chunks.add(chunk.file);
  else if (bare && ours && !inChunk && request !== 'vscode') required.add(request);
  return original.call(this, request, parent, isMain);
};

async function main(): Promise<void> {
  const sandbox = await startSandboxCli();
  try {
    // Loaded after the hook, as the connection loads it with its first client.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadApi } = require('../../src/api/lazyClient') as typeof import('../../src/api/lazyClient');
    const { EoClient } = loadApi();
    const client = new EoClient({
      baseUrl: sandbox.url,
      token: sandbox.tokens.alice,
      authScheme: 'bearer',
      timeoutMs: 30_000,
      userAgent: 'eo-imagery-bench/0',
    });
    try {
      await client.projects.listPage({ pageNum: 1, pageSize: 1 });
    } finally {
      await client.close();
    }
  } finally {
    await sandbox.close();
  }
  console.log(JSON.stringify({ required: [...required].sort(), chunks: [...chunks].sort() }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
