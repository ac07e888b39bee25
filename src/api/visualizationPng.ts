/**
 * The service's rendering of a visualization for one date and legend mode
 * (`POST /v0/aois/{aoi_id}/visualizations/{id}/png`): an `image/png`. The OpenAPI labels its
 * error bodies `image/png` too while giving them the JSON error schema, so an answer is
 * judged by its bytes (the PNG signature), not by its Content-Type.
 */
import { ApiError } from './errors';
import { pngDate } from './legend';
import type { VisualizationMode, VisualizationPngRequest } from './records';
import { pathOf, type CallOptions, type Transport } from './transport';

export interface VisualizationPng {
  /** The PNG file as received. */
  bytes: Buffer;
  width: number;
  height: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk, or a reason the bytes are not a PNG. */
export function pngSize(b: Buffer): { width: number; height: number } | { error: string } {
  if (b.length < 24 || !b.subarray(0, 8).equals(SIGNATURE)) return { error: 'the answer is not a PNG image' };
  if (b.toString('latin1', 12, 16) !== 'IHDR') return { error: 'the PNG has no IHDR header' };
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  if (width < 1 || height < 1) return { error: `the PNG is ${width} × ${height} pixels` };
  return { width, height };
}

export class VisualizationPngApi {
  constructor(private readonly t: Transport) {}

  /** `date` is `YYYY-MM-DD` (an asset's date). Sent once per call (a POST); an answer that is not a PNG is a protocol error. */
  async render(
    aoiId: string,
    visualizationId: string,
    body: { index_id: string; date: string; mode: VisualizationMode },
    o?: CallOptions,
  ): Promise<VisualizationPng> {
    if (!/^\d{4}[-_]\d{2}[-_]\d{2}/.test(body.date)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(body.date)}`);
    const req: VisualizationPngRequest = { index_id: body.index_id, date: pngDate(body.date), visualization_mode: body.mode };
    const path = pathOf`/v0/aois/${aoiId}/visualizations/${visualizationId}/png`;
    const res = await this.t.send({ method: 'POST', path, body: req, accept: 'image/png' }, o);
    const bytes = res.raw ?? Buffer.from(res.text, 'utf8');
    const size = pngSize(bytes);
    if ('error' in size) {
      const what =
        (res.contentType ?? '').toLowerCase().includes('json') || /^\s*[{[]/.test(res.text.slice(0, 64))
          ? 'JSON instead of an image'
          : res.contentType || 'no content type';
      throw new ApiError({ kind: 'protocol', method: 'POST', path, detailMessage: `expected a PNG image, got ${what} (${size.error})` });
    }
    return { bytes, ...size };
  }
}
