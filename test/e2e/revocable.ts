// A loopback relay in front of the sandbox CLI that can stop accepting a token mid-session,
// as the service does when a token is revoked or expires: requests bearing it are answered
// 401 with the interface's error body; everything else passes through untouched.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RevocableService {
  url: string;
  revoke(token: string): void;
  close(): Promise<void>;
}

export async function revocableService(target: string): Promise<RevocableService> {
  const revoked = new Set<string>();
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const token = auth.replace(/^Bearer\s+/i, '');
    if (token && revoked.has(token)) {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'the access token was revoked', details: 'authorization' } }));
      return;
    }
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    revoke: (t) => revoked.add(t),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
