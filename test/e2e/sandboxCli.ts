// The service sandbox as its own process: `dist/sandbox-cli.js`, the CLI users run. Apart from
// the workbench harness (./workbench.ts), so the benchmarks can start one without loading the
// e2e tier's test hooks.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../integration/harness/codeServer';

export interface SandboxProcess {
  url: string;
  tokens: { alice: string; bob: string };
  output(): string;
  close(): Promise<void>;
}

const LISTENING = /EO Imagery sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** Starts `dist/sandbox-cli.js --port 0` and resolves with the URL it prints first. */
export async function startSandboxCli(args: string[] = [], timeoutMs = 20_000): Promise<SandboxProcess> {
  const cli = path.join(REPO_ROOT, 'dist', 'sandbox-cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (the sandbox CLI bundle)`);
  const child: ChildProcess = spawn(process.execPath, [cli, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox CLI printed no "listening" line within ${timeoutMs / 1000} s:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = LISTENING.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox CLI exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url,
    tokens: { alice: 'sandbox-alice', bob: 'sandbox-bob' },
    output: () => out,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
