/**
 * Fetches a STAC item's thumbnail for the panel, which shows it as a data URL (the webview
 * has no network). No credentials are sent; redirects are followed only within the origin
 * of the asset's own link (a cross-host hop could lead anywhere the server likes), the host
 * is checked like every other host the service points to (a private one needs the person's
 * leave: `Connection.otherHosts`), and the body is read only up to the size limit, never
 * whole first. No vscode.
 */
import type { Dispatcher } from 'undici';
import type { OtherHosts } from '../api';
import { undici } from '../api/undici';

export const THUMB_MAX_BYTES = 2 * 1024 * 1024;
const THUMB_TYPES = /^image\/(png|jpeg|webp|gif)$/;
const MAX_HOPS = 3;

export interface Thumbnail {
  type: string;
  bytes: Buffer;
}

export interface ThumbnailOptions {
  timeoutMs?: number;
  maxBytes?: number;
  otherHosts?: OtherHosts;
}

const header = (res: Dispatcher.ResponseData, name: string): string | undefined => {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function fetchThumbnail(href: string, opts: ThumbnailOptions = {}): Promise<Thumbnail> {
  const maxBytes = opts.maxBytes ?? THUMB_MAX_BYTES;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 10_000);
  const origin = new URL(href).origin;
  let url = new URL(href);
  for (let hop = 0; ; hop++) {
    await opts.otherHosts?.check(url);
    const res = await undici().request(url, { method: 'GET', signal, dispatcher: opts.otherHosts?.dispatcher() });
    if (res.statusCode >= 300 && res.statusCode < 400) {
      await res.body.dump().catch(() => undefined);
      const location = header(res, 'location');
      if (!location) throw new Error(`${res.statusCode} without a Location`);
      const next = new URL(location, url);
      if (next.origin !== origin) throw new Error(`redirected to another host (${next.host})`);
      if (hop >= MAX_HOPS) throw new Error(`more than ${MAX_HOPS} redirects`);
      url = next;
      continue;
    }
    const type = (header(res, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (res.statusCode !== 200 || !THUMB_TYPES.test(type)) {
      await res.body.dump().catch(() => undefined);
      throw new Error(`${res.statusCode} ${type || 'no content type'}`);
    }
    const declared = Number(header(res, 'content-length') ?? NaN);
    if (declared > maxBytes) {
      res.body.destroy();
      throw new Error(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    return { type, bytes: await readUpTo(res.body, maxBytes) };
  }
}

async function readUpTo(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      throw new Error(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
