/**
 * The map's imagery on the extension side: which files the webview may read (those the
 * extension put on the map; after a window reload, those of its saved layers that the
 * extension had put there, `AllowedFiles`), the byte reads themselves (`ImageryByteServer`),
 * and the preview picture shown over a layer's footprint until its pixels arrive.
 */
import type { EoClient } from '../../api/client';
import { isWebUrl } from '../protocol';
import type { AllowedFiles } from './allowedFiles';
import { ImageryByteServer } from './byteServer';
import type { ReadBytesParams, ReadBytesResult } from './protocol';

const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

/** PNG, JPEG or WebP by their first bytes (a preview is never trusted by its name). */
function sniffImage(b: Buffer): string | undefined {
  if (b.length > 8 && b[0] === 0x89 && b.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

export class MapImagery {
  private readonly bytes = new ImageryByteServer();

  constructor(
    private readonly client: () => Promise<EoClient>,
    private readonly allowed: AllowedFiles,
  ) {}

  /** Files the extension puts on the map: the webview may read them, now and after a reload. */
  allow(urls: readonly string[]): void {
    const web = urls.filter((u) => isWebUrl(u));
    for (const url of web) this.bytes.allow(url);
    this.allowed.add(web);
  }

  /**
   * A revived map: of the URLs its saved layers name (the webview's state, which the page can
   * write), only those the extension had put on this map become readable again.
   */
  reallow(urls: readonly unknown[]): void {
    for (const url of urls) if (isWebUrl(url) && this.allowed.has(url)) this.bytes.allow(url);
  }

  async read(params: ReadBytesParams, signal?: AbortSignal): Promise<ReadBytesResult> {
    return this.bytes.read(await this.client(), params, signal);
  }

  /** A picture to show until the pixels arrive: a PNG, JPEG or WebP of at most 2 MiB, or nothing. */
  async preview(url: string): Promise<string | undefined> {
    try {
      const client = await this.client();
      const r = await client.readRange(url, 0, PREVIEW_MAX_BYTES, { maxWholeFile: PREVIEW_MAX_BYTES });
      const type = sniffImage(r.body);
      if (!type || (r.total !== undefined && r.total > PREVIEW_MAX_BYTES)) return undefined;
      return `data:${type};base64,${r.body.toString('base64')}`;
    } catch {
      // no preview: the layer list shows the GeoTIFF's own progress
      return undefined;
    }
  }
}
