/** Download links for catalog entries: created → in_progress → success (signed_url) | failed. */
import { recordParser } from './listing';
import { poll, isFinalStatus, type PollOptions } from './poll';
import type { CreateDownloadRequest, Download } from './records';
import { download } from './schemas';
import { pathOf, type CallOptions, type Transport } from './transport';

const parseOne = recordParser<Download>(download, 'download');

export class DownloadsApi {
  constructor(private readonly t: Transport) {}

  /** Request a download of `catalog_ids` or `order_item_ids` (not both). Sent exactly once. */
  create(req: CreateDownloadRequest, o?: CallOptions): Promise<Download> {
    const both = req.catalog_ids !== undefined && req.order_item_ids !== undefined;
    const neither = req.catalog_ids === undefined && req.order_item_ids === undefined;
    if (both || neither) throw new TypeError(`a download needs either catalog_ids or order_item_ids, not ${both ? 'both' : 'neither'}`);
    return this.t.json({ method: 'POST', path: '/v0/catalogs/download', body: req }, parseOne, o);
  }

  get(downloadId: string, o?: CallOptions): Promise<Download> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/catalogs/download/${downloadId}` }, parseOne, o);
  }

  /** Re-read until `success` (with `signed_url`) or `failed`. */
  waitUntilDone(downloadId: string, opts: Omit<PollOptions<Download>, 'isFinal'> = {}): Promise<Download> {
    return poll((signal) => this.get(downloadId, { signal }), {
      what: `download ${downloadId}`,
      path: pathOf`/v0/catalogs/download/${downloadId}`,
      ...opts,
      isFinal: (d) => isFinalStatus('download', d.status),
    });
  }
}
