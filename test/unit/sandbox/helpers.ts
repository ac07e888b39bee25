/** Shared by the sandbox tests: one call helper over real HTTP on loopback. */
import type { SandboxHandle } from '../../../src/sandbox';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export function caller(sb: SandboxHandle, who: 'alice' | 'bob' | 'none' = 'alice') {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const h: Record<string, string> = { ...headers };
    if (who !== 'none' && h.authorization === undefined) h.authorization = `Bearer ${sb.tokens[who]}`;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(sb.url + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  };
}

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

export const fc = (g: unknown) => ({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: g }] });
