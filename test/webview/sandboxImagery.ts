/** What the imagery suites that read the sandbox share: the map's reads served by the client, and a GDAL fixture run. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { EoClient } from '../../src/api/client';
import type { ReadBytesParams } from '../../src/panels/imagery/protocol';
import type { RequestHandler } from './harness';

/** The map's `readBytes` requests answered as the extension answers them: range reads through the client. */
export function sandboxReads(client: EoClient): RequestHandler {
  return async (req) => {
    const q = req as { method: string; params: ReadBytesParams };
    if (q.method !== 'readBytes') throw new Error(`unexpected ${q.method}`);
    const got = await client.readRange(q.params.url, q.params.offset, q.params.length, { maxWholeFile: 50 * 1024 * 1024 });
    return { bytes: new Uint8Array(got.body), total: got.total };
  };
}

/** Runs one of test/fixtures/imagery's Python scripts (Debian's python3 with GDAL) on a JSON job; its JSON answer. */
export async function runFixture<T>(script: string, job: unknown): Promise<T> {
  const path = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', script);
  const child = spawn('/usr/bin/python3', [path], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stdin.end(JSON.stringify(job));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `${script} ran`);
  return JSON.parse(out) as T;
}
