/**
 * Fetches a STAC item's thumbnail for the panel, which shows it as a data URL (the webview
 * has no network). No credentials are sent; redirects are followed only within the origin
 * of the asset's own link (a cross-host hop could lead anywhere the server likes), and the
 * body is read only up to the size limit, never whole first. No vscode.
 */
export const THUMB_MAX_BYTES = 2 * 1024 * 1024;
const THUMB_TYPES = /^image\/(png|jpeg|webp|gif)$/;
const MAX_HOPS = 3;

export interface Thumbnail {
  type: string;
  bytes: Buffer;
}

export async function fetchThumbnail(href: string, opts: { timeoutMs?: number; maxBytes?: number } = {}): Promise<Thumbnail> {
  const maxBytes = opts.maxBytes ?? THUMB_MAX_BYTES;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 10_000);
  const origin = new URL(href).origin;
  let url = href;
  for (let hop = 0; ; hop++) {
    const res = await fetch(url, { signal, redirect: 'manual' });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (!location) throw new Error(`${res.status} without a Location`);
      const next = new URL(location, url);
      if (next.origin !== origin) throw new Error(`redirected to another host (${next.host})`);
      if (hop >= MAX_HOPS) throw new Error(`more than ${MAX_HOPS} redirects`);
      url = next.href;
      continue;
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (res.status !== 200 || !THUMB_TYPES.test(type)) {
      await res.body?.cancel();
      throw new Error(`${res.status} ${type || 'no content type'}`);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw new Error(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    return { type, bytes: await readUpTo(res, maxBytes) };
  }
}

async function readUpTo(res: Response, maxBytes: number): Promise<Buffer> {
  const reader = res.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new Error(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
