/** Download links for catalog entries: created → in_progress → success (signed_url) | failed. */
import { IdListForm } from './idLists';
import { recordParser } from './listing';
import { poll, isFinalStatus, type PollOptions } from './poll';
import type { CreateDownloadRequest, Download } from './records';
import { download } from './schemas';
import { pathOf, type CallOptions, type Transport } from './transport';

const parseOne = recordParser<Download>(download, 'download');

export class DownloadsApi {
  constructor(
    private readonly t: Transport,
    private readonly idLists: IdListForm = new IdListForm(),
  ) {}

  /**
   * Request a download of `catalog_ids` or `order_item_ids` (not both). Sent once, or twice
   * only when the first answer was a 400 asking for the other list too (see `IdListForm`).
   */
  create(req: CreateDownloadRequest, o?: CallOptions): Promise<Download> {
    return this.idLists.send([req], ([body]) => this.t.json({ method: 'POST', path: '/v0/catalogs/download', body }, parseOne, o));
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
