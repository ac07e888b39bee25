/** A tiny HTTP server for fault tests: each test scripts the answers and counts requests. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: SeenRequest, res: http.ServerResponse, n: number) => void;

export interface TestServer {
  url: string;
  requests: SeenRequest[];
  /** Requests per `METHOD path` (path without query). */
  count(method: string, path: string): number;
  setHandler(h: Handler): void;
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
  let current = handler;
  const requests: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      current(seen, res, requests.length);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (method, path) => requests.filter((r) => r.method === method && r.url.split('?')[0] === path).length,
    setHandler: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function text(res: http.ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Fail the test run on any unhandled rejection (the client must never leave one behind). */
export function trackUnhandled(): { readonly reasons: unknown[] } {
  const reasons: unknown[] = [];
  process.on('unhandledRejection', (r) => reasons.push(r));
  return { reasons };
}

/** A minimal stored order as the service returns it, for tests that only need a valid one. */
export const ORDER = {
  id: 'o1',
  org_id: 'org',
  user_id: 'u',
  status: 'UNPAID',
  total_amount: 12.5,
  transaction_id: '',
  paid_at: '',
  created_at: '2024-01-01T00:00:00+00:00',
  updated_at: '2024-01-01T00:00:00+00:00',
  created_by: 'u',
  updated_by: 'u',
  order_items: [],
};

/** Asset `i` of AOI `aoi-1` as the service lists it (`a0`, `a1`, …), for tests of asset listings. */
export function assetRecord(i: number): Record<string, unknown> {
  return {
    id: `a${i}`,
    aoi_id: 'aoi-1',
    visualization_id: '',
    name: `asset ${i}`,
    description: '',
    asset_type: 'mosaic',
    date: '2024-01-01',
    path: `https://files.example/a${i}.tif`,
    band_list: ['red'],
    created_at: '2024-01-01T00:00:00Z',
  };
}
