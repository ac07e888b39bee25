/**
 * The timelapse encoders, in a chunk of their own (`timelapse.js`), loaded the first time a
 * timelapse is exported, so neither the map nor the imagery bundle carries them.
 *
 * GIF: gifenc (MIT, about 9 KB): a palette per frame (its `quantize`, RGB565 buckets) and LZW,
 * fast enough to encode 1920 × 1080 frames on the webview's main thread without freezing it
 * for long. WebM: the browser's own WebCodecs `VideoEncoder` (VP9, else VP8) through Mediabunny
 * (MPL-2.0), whose WebM muxer writes the EBML header, cues and duration; webm-muxer, the
 * smaller library by the same author, is deprecated in its favour. Both are plain JavaScript:
 * nothing here needs WebAssembly or `eval`, which the map's CSP does not allow.
 */
import { GIFEncoder, quantize, type Palette } from 'gifenc';
import { BufferTarget, CanvasSource, Output, QUALITY_HIGH, WebMOutputFormat, canEncodeVideo, type VideoCodec } from 'mediabunny';

export interface FrameEncoder {
  /** Adds the canvas as it is now as the next frame. */
  add(canvas: HTMLCanvasElement): Promise<void>;
  finish(): Promise<{ bytes: ArrayBuffer; codec?: string }>;
  cancel(): void;
}

export class EncoderUnavailable extends Error {}

/**
 * Each pixel's nearest palette entry, remembered per exact colour. gifenc's `applyPalette`
 * remembers it per 5-bit bucket instead, so the first colour seen in a bucket (an antialiased
 * pixel of the outline, say) decides for a whole field of another colour in it.
 */
function indexed(rgba: Uint8ClampedArray, palette: Palette): Uint8Array {
  const out = new Uint8Array(rgba.length / 4);
  const known = new Map<number, number>();
  for (let p = 0, o = 0; p < out.length; p++, o += 4) {
    const r = rgba[o];
    const g = rgba[o + 1];
    const b = rgba[o + 2];
    const key = (r << 16) | (g << 8) | b;
    let best = known.get(key);
    if (best === undefined) {
      let min = Infinity;
      for (let i = 0; i < palette.length; i++) {
        const c = palette[i];
        const d = (r - c[0]) ** 2 + (g - c[1]) ** 2 + (b - c[2]) ** 2;
        if (d < min) {
          min = d;
          best = i;
          if (d === 0) break;
        }
      }
      known.set(key, best ?? 0);
    }
    out[p] = best ?? 0;
  }
  return out;
}

function gif(width: number, height: number, fps: number): FrameEncoder {
  const enc = GIFEncoder();
  let first = true;
  return {
    async add(canvas) {
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      if (!ctx) throw new Error('The frame cannot be read back.');
      const { data } = ctx.getImageData(0, 0, width, height);
      const palette = quantize(data, 256);
      // gifenc writes the delay in hundredths of a second (Math.round(ms / 10))
      enc.writeFrame(indexed(data, palette), width, height, { palette, delay: 1000 / fps, ...(first ? { repeat: 0 } : {}) });
      first = false;
    },
    async finish() {
      enc.finish();
      const b = enc.bytes();
      return { bytes: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer };
    },
    cancel() {
      enc.reset();
    },
  };
}

async function webm(canvas: HTMLCanvasElement, fps: number): Promise<FrameEncoder> {
  const size = { width: canvas.width, height: canvas.height };
  let codec: VideoCodec | undefined;
  for (const c of ['vp9', 'vp8'] as const) {
    if (typeof VideoEncoder !== 'undefined' && (await canEncodeVideo(c, size).catch(() => false))) {
      codec = c;
      break;
    }
  }
  if (!codec) throw new EncoderUnavailable('This editor cannot encode VP9 or VP8 video (its browser has no WebCodecs encoder for them); export a GIF instead.');
  const target = new BufferTarget();
  const output = new Output({ format: new WebMOutputFormat(), target });
  // a key frame every date would be large; every 2 s lets a player seek
  const source = new CanvasSource(canvas, { codec, bitrate: QUALITY_HIGH, keyFrameInterval: 2 });
  output.addVideoTrack(source, { frameRate: fps });
  await output.start();
  let n = 0;
  return {
    async add() {
      await source.add(n / fps, 1 / fps);
      n++;
    },
    async finish() {
      source.close();
      await output.finalize();
      if (!target.buffer) throw new Error('The video has no bytes.');
      return { bytes: target.buffer, codec };
    },
    cancel() {
      void output.cancel().catch(() => undefined);
    },
  };
}

export interface TimelapseChunk {
  /** An encoder for frames drawn on `canvas` (its size is the frame size). */
  encoder(format: 'gif' | 'webm', canvas: HTMLCanvasElement, fps: number): Promise<FrameEncoder>;
}

const chunk: TimelapseChunk = {
  encoder: async (format, canvas, fps) => (format === 'gif' ? gif(canvas.width, canvas.height, fps) : webm(canvas, fps)),
};
(window as unknown as { __eoTimelapseChunk?: TimelapseChunk }).__eoTimelapseChunk = chunk;
