/**
 * Which lazily loaded libraries the extension's first request pulls in, for the
 * "extension host at first request" size figure of `npm run bench`. It makes the request the
 * extension makes first (the sign-in check: the first project page, one record) with the
 * client's own code, against the sandbox CLI in its own process, and records every bare
 * module name our code `require()`s until the answer is in, and each of our own modules built as
 * a chunk of its own. Each one the build externalises is a file under dist/vendor
 * (esbuild.mjs); bench.mjs adds those files to extension.js.
 *
 * Prints one JSON line: {"required": ["undici", ...]}.
 */
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { startSandboxCli } from '../e2e/workbench';

type Load = (request: string, parent: { filename?: string } | null, isMain: boolean) => unknown;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('node:module') as { _load: Load };

const OUR_CODE = path.join(__dirname, '..', '..', 'src') + path.sep;
/** Our modules that esbuild.mjs (LAZY_LOCAL) builds as a chunk of their own, and its name. */
const LOCAL_CHUNKS: Record<string, string> = { './undiciCore': 'undici' };
const required = new Set<string>();
const original = Module._load;
Module._load = function (request, parent, isMain) {
  const bare = !request.startsWith('.') && !path.isAbsolute(request) && !request.startsWith('node:') && !builtinModules.includes(request);
  const ours = parent?.filename?.startsWith(OUR_CODE) === true;
  // what a lazy chunk requires is inside that chunk: only the chunk itself counts
  const inChunk = Object.keys(LOCAL_CHUNKS).some((r) => parent?.filename?.endsWith(`${r.slice(1)}.js`));
  if (ours && request in LOCAL_CHUNKS) required.add(LOCAL_CHUNKS[request]);
  else if (bare && ours && !inChunk && request !== 'vscode') required.add(request);
  return original.call(this, request, parent, isMain);
};

async function main(): Promise<void> {
  const sandbox = await startSandboxCli();
  try {
    // Loaded after the hook, as activation would load it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { EoClient } = require('../../src/api') as typeof import('../../src/api');
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
  console.log(JSON.stringify({ required: [...required].sort() }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
