/**
 * Downloads of AOI assets (`POST /v0/aois/{aoi_id}/downloads`, then
 * `GET …/downloads/{download_id}` until it is ready with a signed URL). The OpenAPI gives the
 * status no enumeration (its example is `SUCCESS`), so it is read without regard to case;
 * catalog downloads use lower case for the same words.
 */
import { poll, type PollOptions } from './poll';
import type { AoiDownload, CreateAoiDownloadRequest } from './records';
import { aoiDownload } from './schemas';
import { assertShape } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';

export type AoiDownloadPhase = 'pending' | 'ready' | 'failed';

const READY = new Set(['success', 'succeeded', 'successful', 'completed', 'complete', 'done', 'ready']);
const FAILED = new Set(['failed', 'failure', 'error', 'expired', 'cancelled', 'canceled', 'rejected']);

/** Where a download stands; any status not known to be final is followed. */
export function aoiDownloadPhase(status: string | undefined): AoiDownloadPhase {
  const s = (status ?? '').trim().toLowerCase();
  return READY.has(s) ? 'ready' : FAILED.has(s) ? 'failed' : 'pending';
}

/** Both keys accepted; the record always carries `download_id`. */
export function parseAoiDownload(body: unknown): AoiDownload {
  const d = assertShape<AoiDownload & { id?: string }>(body, aoiDownload, 'download');
  const { id, ...rest } = d;
  return { ...rest, download_id: d.download_id ?? (id as string) };
}

export class AoiDownloadsApi {
  constructor(private readonly t: Transport) {}

  /** Ask for a download of some of the AOI's assets. Sent once, never retried. */
  create(aoiId: string, req: CreateAoiDownloadRequest, o?: CallOptions): Promise<AoiDownload> {
    return this.t.json({ method: 'POST', path: pathOf`/v0/aois/${aoiId}/downloads`, body: req }, parseAoiDownload, o);
  }

  get(aoiId: string, downloadId: string, o?: CallOptions): Promise<AoiDownload> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/aois/${aoiId}/downloads/${downloadId}` }, parseAoiDownload, o);
  }

  /** Re-read until ready (then with `signed_url`) or failed, waiting longer between reads each time. */
  waitUntilDone(aoiId: string, downloadId: string, opts: Omit<PollOptions<AoiDownload>, 'isFinal'> = {}): Promise<AoiDownload> {
    return poll((signal) => this.get(aoiId, downloadId, { signal }), {
      what: `download ${downloadId}`,
      path: pathOf`/v0/aois/${aoiId}/downloads/${downloadId}`,
      ...opts,
      isFinal: (d) => aoiDownloadPhase(d.status) !== 'pending',
    });
  }
}
