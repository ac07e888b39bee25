// gifenc ships no types: the part of its API the timelapse chunk uses (gifenc 1.0.3, README).
declare module 'gifenc' {
  export type Palette = number[][];
  export interface GifWriteFrameOptions {
    palette?: Palette;
    /** Milliseconds; written as hundredths of a second. */
    delay?: number;
    /** 0: loop forever; -1: play once. Read on the first frame. */
    repeat?: number;
    transparent?: boolean;
    transparentIndex?: number;
    first?: boolean;
    dispose?: number;
  }
  export interface GifEncoderInstance {
    writeFrame(index: Uint8Array, width: number, height: number, options?: GifWriteFrameOptions): void;
    finish(): void;
    bytes(): Uint8Array;
    bytesView(): Uint8Array;
    reset(): void;
  }
  export function GIFEncoder(options?: { auto?: boolean; initialCapacity?: number }): GifEncoderInstance;
  export function quantize(rgba: Uint8Array | Uint8ClampedArray, maxColors: number, options?: { format?: 'rgb565' | 'rgb444' | 'rgba4444' }): Palette;
}
