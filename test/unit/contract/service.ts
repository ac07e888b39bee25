/**
 * The contract suite's only way to the service: HTTP with plain `fetch`, to the sandbox CLI
 * bundle (`dist/sandbox-cli.js`) running as a separate process. Nothing here imports the
 * sandbox or our client, so an expectation can only come from the interface
 * (docs/service-interface.md), never from code the sandbox shares with us.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '..', '..', '..', '..', 'dist', 'sandbox-cli.js');

export interface Service {
  url: string;
  /** Tokens the sandbox prints for its two seeded service users. */
  tokens: { alice: string; bob: string };
  close(): Promise<void>;
}

/** Starts the sandbox CLI on a free port and reads its URL and tokens from what it prints. */
export async function startService(args: string[] = []): Promise<Service> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\``);
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const started = await new Promise<{ url: string; alice: string; bob: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox printed no URL and tokens within 60 s:\n${out}`)), 60_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const alice = /alice token: (\S+)/.exec(out)?.[1];
      const bob = /bob token:\s+(\S+)/.exec(out)?.[1];
      if (url && alice && bob) {
        clearTimeout(timer);
        resolve({ url, alice, bob });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited with ${code}:\n${out}`));
    });
  });
  return {
    url: started.url,
    tokens: { alice: started.alice, bob: started.bob },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Reply {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

export type Who = 'alice' | 'bob' | 'none' | 'alice-bare';

/** A caller: `Bearer <token>` (the worked examples), the bare token, or no header at all. */
export function caller(svc: Service, who: Who = 'alice') {
  return async function call(method: string, p: string, body?: unknown): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (who === 'alice' || who === 'bob') headers.authorization = `Bearer ${svc.tokens[who]}`;
    if (who === 'alice-bare') headers.authorization = svc.tokens.alice;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(svc.url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    let json: unknown;
    if (/json/.test(contentType) && text !== '') json = JSON.parse(text);
    return { status: res.status, contentType, text, json };
  };
}

export type Call = ReturnType<typeof caller>;

// ---- Formats the interface names (docs/service-interface.md, "Conventions") ----

/** ISO 8601 / RFC 3339 with the `T` separator and a zone (`Z` or an offset). */
export const ISO_T = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Visualization and asset timestamps: `YYYY-MM-DD HH:MM:SS.ffffff+00:00`. */
export const SPACE_MICROS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
/** Task dates: `DD-MM-YYYY`. */
export const DMY = /^\d{2}-\d{2}-\d{4}$/;
/** Asset dates: `YYYY-MM-DD`. */
export const YMD = /^\d{4}-\d{2}-\d{2}$/;

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | RegExp | readonly string[];

function kindOk(v: unknown, k: Kind): boolean {
  if (k instanceof RegExp) return typeof v === 'string' && k.test(v);
  if (Array.isArray(k)) return typeof v === 'string' && k.includes(v);
  switch (k) {
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    default:
      return typeof v === k;
  }
}

/** Every listed field is present with the declared type, format or value set. */
export function assertFields(record: unknown, fields: Record<string, Kind>, what: string): void {
  assert.ok(kindOk(record, 'object'), `${what}: not an object: ${JSON.stringify(record)?.slice(0, 200)}`);
  const r = record as Record<string, unknown>;
  for (const [name, kind] of Object.entries(fields)) {
    const desc = kind instanceof RegExp ? `matching ${kind}` : Array.isArray(kind) ? `one of ${kind.join(', ')}` : String(kind);
    assert.ok(kindOk(r[name], kind), `${what}.${name} should be ${desc}, got ${JSON.stringify(r[name])}`);
  }
}

export function asObject(v: unknown, what: string): Record<string, unknown> {
  assert.ok(kindOk(v, 'object'), `${what}: expected a JSON object, got ${JSON.stringify(v)?.slice(0, 200)}`);
  return v as Record<string, unknown>;
}

export function asArray(v: unknown, what: string): unknown[] {
  assert.ok(Array.isArray(v), `${what}: expected an array, got ${JSON.stringify(v)?.slice(0, 200)}`);
  return v;
}

/** Status and JSON body of a reply, with the body in the message when the status differs. */
export function expectStatus(r: Reply, status: number, what: string): Record<string, unknown> {
  assert.equal(r.status, status, `${what}: expected ${status}, got ${r.status}: ${r.text.slice(0, 300)}`);
  return r.json === undefined ? {} : asObject(r.json, what);
}

/** The offset/limit Pagination object: {limit, offset, total}, integers. */
export function assertPagination(
  body: Record<string, unknown>,
  what: string,
  expect?: { limit?: number; offset?: number },
): { limit: number; offset: number; total: number } {
  assertFields(body.pagination, { limit: 'integer', offset: 'integer', total: 'integer' }, `${what}.pagination`);
  const p = body.pagination as { limit: number; offset: number; total: number };
  if (expect?.limit !== undefined) assert.equal(p.limit, expect.limit, `${what}.pagination.limit`);
  if (expect?.offset !== undefined) assert.equal(p.offset, expect.offset, `${what}.pagination.offset`);
  return p;
}

/**
 * The error body of orders, bandsets, catalogs, stores, deliveries, downloads and archives:
 * {error: {code, message, details}}, `details` a string, or an object for archive endpoints.
 */
export function assertErrorBody(r: Reply, what: string, details: 'string' | 'object' = 'string'): void {
  const body = asObject(r.json, `${what} error body`);
  assertFields(body.error, { code: 'string', message: 'string', details }, `${what} error`);
}

/** A GeoJSON Polygon around (lon, lat), `d` degrees from the centre. */
export function square(lon: number, lat: number, d: number) {
  return {
    type: 'Polygon' as const,
    coordinates: [
      [
        [lon - d, lat - d],
        [lon + d, lat - d],
        [lon + d, lat + d],
        [lon - d, lat + d],
        [lon - d, lat - d],
      ],
    ],
  };
}
