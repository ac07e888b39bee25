/** Export Timelapse… run in the map webview from a test: the request posted, the reply's bytes back, a GIF decoded. */
import { GifReader } from 'omggif';
import type { TimelapseRequest } from '../../src/panels/imagery/timelapseMessages';
import type { Harness } from './harness';

export type Reply = {
  ok: boolean;
  error?: string;
  cancelled?: boolean;
  result?: { b64?: string; dates: string[]; skipped: { date: string; error: string }[]; codec?: string };
};

/** Runs a timelapse in the page; the reply's bytes come back as base64 (posted messages are JSON copies). */
export async function runTimelapse(h: Harness, request: TimelapseRequest, cancelAfter?: number): Promise<{ reply: Reply; progress: number }> {
  return h.page.evaluate(
    async ([req, cancelAt]) => {
      // the page's own way in and out: the extension's messages go through its dispatcher, its posts are caught here
      type App = { imagery(): Promise<unknown>; onMessage(m: unknown): Promise<void>; post(m: unknown, transfer?: ArrayBuffer[]): void };
      const app = (window as unknown as { eoMap: App }).eoMap;
      await app.imagery();
      const original = app.post;
      let progress = 0;
      const reply = await new Promise<Reply>((resolve) => {
        app.post = (m: unknown, transfer?: ArrayBuffer[]) => {
          const msg = m as { type: string; ok?: boolean; result?: { bytes?: ArrayBuffer } };
          if (msg.type === 'timelapseProgress') {
            progress++;
            if (cancelAt !== undefined && progress === cancelAt) void app.onMessage({ type: 'timelapseCancel', requestId: 7 });
            return;
          }
          if (msg.type !== 'timelapseReply') return original.call(app, m, transfer);
          const bytes = msg.result?.bytes;
          let b64: string | undefined;
          if (bytes) {
            const u = new Uint8Array(bytes);
            let s = '';
            for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
            b64 = btoa(s);
          }
          resolve({ ...(msg as object), result: msg.result ? { ...(msg.result as object), bytes: undefined, b64 } : undefined } as Reply);
        };
        void app.onMessage({ type: 'timelapse', requestId: 7, request: req });
      });
      delete (app as Partial<App>).post;
      return { reply, progress };
    },
    [request, cancelAfter] as const,
  );
}

/** A GIF's frames, each as RGBA of the whole picture (omggif: an independent decoder). */
export function decode(b64: string): { gif: GifReader; frames: Uint8Array[] } {
  const gif = new GifReader(new Uint8Array(Buffer.from(b64, 'base64')));
  const frames = Array.from({ length: gif.numFrames() }, (_, i) => {
    const px = new Uint8Array(gif.width * gif.height * 4);
    gif.decodeAndBlitFrameRGBA(i, px);
    return px;
  });
  return { gif, frames };
}
