/**
 * `npm run sandbox -- --port 8787 [--seed N] [--scale N] [--latency MS] [--fail-rate R]
 * [--reset-rate R] [--data-dir DIR] [--speed X] [--public-url URL] [--log-requests]`. Loopback only. The first line is
 * `EO Imagery sandbox listening on http://127.0.0.1:PORT` for scripts to parse.
 */
import { startSandbox, type SandboxOptions } from './index';

const FLAGS: Record<string, keyof SandboxOptions> = {
  '--port': 'port',
  '--seed': 'seed',
  '--scale': 'scale',
  '--latency': 'latencyMs',
  '--fail-rate': 'failRate',
  '--reset-rate': 'resetRate',
  '--data-dir': 'dataDir',
  '--speed': 'speed',
  '--public-url': 'publicUrl',
};

const USAGE = `usage: sandbox [--port N] [--seed N] [--scale N] [--latency MS] [--fail-rate 0..1] [--reset-rate 0..1] [--data-dir DIR] [--speed X] [--public-url URL] [--log-requests]`;

function parse(argv: string[]): SandboxOptions & { logRequests?: number } {
  const opts: Record<string, string | number> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
    let value = inline;
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (flag === '--log-requests') {
      // a request log as a service keeps one: method, path and status, never a header or a body
      opts.logRequests = 1;
      continue;
    }
    const key = FLAGS[flag];
    if (!key) throw new Error(`unknown flag ${flag}\n${USAGE}`);
    if (value === undefined) value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (key === 'dataDir' || key === 'publicUrl') opts[key] = value;
    else {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) throw new Error(`${flag} needs a number, got ${JSON.stringify(value)}`);
      opts[key] = n;
    }
  }
  return opts as SandboxOptions & { logRequests?: number };
}

async function main(): Promise<void> {
  const { logRequests, ...opts } = parse(process.argv.slice(2));
  const sb = await startSandbox({ port: 8787, ...opts, ...(logRequests ? { onRequest: (line: string) => console.log(`request ${line}`) } : {}) });
  console.log(`EO Imagery sandbox listening on ${sb.url}`);
  console.log(`  alice token: ${sb.tokens.alice}`);
  console.log(`  bob token:   ${sb.tokens.bob}`);
  console.log(`  try: curl -H "Authorization: Bearer ${sb.tokens.alice}" ${sb.url}/v0/projects`);
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    sb.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`sandbox: ${(e as Error).message}`);
  process.exit(1);
});
