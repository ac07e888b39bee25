/**
 * The STAC item page's messages: one table per direction, each row a message's name, payload
 * and runtime check, imported by stacItemPanel.ts and media/stacItem/app.ts.
 */
import type { ArchiveItem } from '../api/records';
import { isObj } from '../api/shape';
import type { StacAction } from './protocol';
import { row, type MessageIn } from './webview/messages';

const ACTIONS: readonly string[] = ['order', 'copyStacUrl', 'insightInput', 'showImagery'] satisfies StacAction[];

/** The longest text the page's Copy buttons may put on the clipboard (an asset's URL). */
export const STAC_COPY_MAX = 100_000;

/** From the page to the extension. */
export const STAC_FROM_PAGE = {
  ready: row(),
  /** An action button under the header. */
  action: row<{ action: StacAction }>((m) => typeof m.action === 'string' && ACTIONS.includes(m.action)),
  /** A link of the item (checked again before it opens: http(s) only). */
  openExternal: row<{ url: string }>((m) => typeof m.url === 'string'),
  copy: row<{ text: string }>((m) => typeof m.text === 'string' && m.text.length < STAC_COPY_MAX),
};

/** From the extension to the page. */
export const STAC_TO_PAGE = {
  item: row<{ item: ArchiveItem; stacUrl: string }>((m) => isObj(m.item)),
  thumbnail: row<{ dataUrl: string; assetKey: string }>(),
  loading: row<{ label: string }>(),
  error: row<{ message: string }>(),
  notice: row<{ level: 'info' | 'error'; text: string }>(),
};

export type FromStacMessage = MessageIn<typeof STAC_FROM_PAGE>;
export type ToStacMessage = MessageIn<typeof STAC_TO_PAGE>;
