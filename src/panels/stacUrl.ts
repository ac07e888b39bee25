import { archiveItemPath } from '../api/archives';
import type { ArchiveItem } from '../api/records';
import { isWebUrl } from './protocol';

/** An archive item's STAC URL: its own http(s) `self` link when it has one, else where the client reads it. */
export function stacItemUrl(baseUrl: string, ref: { collection: string; id: string }, item?: ArchiveItem): string {
  const self = item?.links?.find((l) => l.rel === 'self')?.href;
  return isWebUrl(self) ? self : `${baseUrl}${archiveItemPath(ref.collection, ref.id)}`;
}
