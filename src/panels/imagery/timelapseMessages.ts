/**
 * "Export Timelapse…": its messages, one row each, and what they carry. The extension asks what
 * the time slider shows (`timelapseSource`) and for the frames drawn and encoded
 * (`timelapse`, `timelapseCancel`); the page answers (`timelapseReply`), reports each date
 * (`timelapseProgress`) and passes on the slider's own Export button (`exportTimelapse`).
 * Host side: timelapseChannel.ts; page side: media/map/channels/timelapse.ts.
 */
import { isObj } from '../../api/shape';
import { isCount, isId, isReply, row, type MessageIn } from '../webview/messages';
import type { TimeFrame } from './protocol';

/** What the page draws and encodes (media/map/imagery/timelapse.ts). */
export interface TimelapseRequest {
  /** Names the place in the frames' label (the AOI, or the time slider's title). */
  title: string;
  /** The dates to draw, oldest first; absent: the time slider's dates. */
  frames?: TimeFrame[];
  /** The place to frame, [west, south, east, north] in degrees; absent: the map's view. */
  bbox?: [number, number, number, number];
  /** A GeoJSON (Multi)Polygon drawn as an outline on every frame (the AOI). */
  outline?: unknown;
  width: number;
  height: number;
  /** Frames per second. */
  fps: number;
  format: 'gif' | 'webm';
}

/** What the time slider shows, for the palette's "Export Timelapse…" (undefined: no slider open). */
export interface TimelapseSource {
  title: string;
  dates: string[];
  /** The first date's AOI polygon, when the slider shows an AOI's mosaics. */
  outline?: unknown;
}

export interface TimelapseResult {
  bytes: ArrayBuffer | Uint8Array;
  /** The dates drawn, one frame each, oldest first. */
  dates: string[];
  /** Dates left out, with the reason (a file that cannot be read, say). */
  skipped: { date: string; error: string }[];
  width: number;
  height: number;
  fps: number;
  /** The video codec of a WebM ('vp09…' or 'vp8'). */
  codec?: string;
}

const asked = (m: Record<string, unknown>) => isId(m.requestId);

/** From the extension to the page. */
export const TIMELAPSE_TO_PAGE = {
  timelapseSource: row<{ requestId: number }>(asked),
  timelapse: row<{ requestId: number; request: TimelapseRequest }>((m) => asked(m) && isObj(m.request)),
  timelapseCancel: row<{ requestId: number }>(asked),
};

/** From the page to the extension. */
export const TIMELAPSE_FROM_PAGE = {
  timelapseReply: row<
    | { requestId: number; ok: true; result: TimelapseResult | { source?: TimelapseSource } }
    | { requestId: number; ok: false; error: string; cancelled?: boolean }
  >((m) => isReply(m, (r) => isObj(r.result))),
  timelapseProgress: row<{ requestId: number; done: number; total: number; date: string }>(
    (m) => asked(m) && isCount(m.done) && isCount(m.total) && typeof m.date === 'string',
  ),
  /** The time slider's "Export Timelapse…" button. */
  exportTimelapse: row(),
};

export type ToMapTimelapseMessage = MessageIn<typeof TIMELAPSE_TO_PAGE>;
export type FromMapTimelapseMessage = MessageIn<typeof TIMELAPSE_FROM_PAGE>;
