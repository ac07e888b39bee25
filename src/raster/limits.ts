/**
 * Bounds on reading a file's bytes, shared by the map webview's byte source and the extension
 * host's reads: one request never asks for more than this.
 */

/** Largest single read the webview (or the host's clip) may ask for. */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** Bounds on a TIFF's structure (media/map/imagery/tiffStructure.ts checks a file against them before geotiff.js reads it). */
export const TIFF_LIMITS = {
  /** Image directories in the chain (full resolution, overviews, masks). */
  images: 64,
  /** Entries of one directory (real files have a few dozen). */
  entries: 1024,
  /** Values of one entry (the tile offsets of a huge image are the largest). */
  valueBytes: 16 * 1024 * 1024,
  /** Values geotiff.js reads while it parses one directory (the entries it reads eagerly). */
  eagerBytes: 1024 * 1024,
  /** Decoded bytes of one tile or strip: width × height × samples × bytes per sample. */
  blockBytes: 64 * 1024 * 1024,
};
