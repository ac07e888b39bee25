/**
 * An RGBA pixel buffer as an uncompressed 32-bit BMP, for showing a drawn tile as an image
 * instead of a canvas. Without a GPU (remote desktops, VMs, `--disable-gpu`) Chromium
 * composites every canvas on the map again on each frame; images are rastered once. BMP costs
 * a copy, where PNG would cost an encode per tile. The header is BITMAPV4 with bit-field
 * masks that match the buffer's byte order (so the pixels are copied as they are), an alpha
 * mask, the sRGB colour space (no colour conversion) and rows top-down.
 */
const FILE_HEADER = 14;
const V4_HEADER = 108;

/**
 * The tile as a BMP file, without copying its pixels into JavaScript memory: the Blob holds
 * the header and a copy of the pixels (taken now, so the buffer may be reused at once).
 */
export function bmpBlob(rgba: Uint8ClampedArray<ArrayBuffer>, width: number, height: number): Blob {
  return new Blob([bmpHeader(width, height), rgba], { type: 'image/bmp' });
}

function bmpHeader(width: number, height: number): Uint8Array<ArrayBuffer> {
  const offset = FILE_HEADER + V4_HEADER;
  const out = new Uint8Array(offset);
  const v = new DataView(out.buffer);
  out[0] = 0x42; // 'B'
  out[1] = 0x4d; // 'M'
  v.setUint32(2, offset + width * height * 4, true);
  v.setUint32(10, offset, true);
  v.setUint32(14, V4_HEADER, true);
  v.setInt32(18, width, true);
  v.setInt32(22, -height, true); // negative: the first row is the top one
  v.setUint16(26, 1, true); // planes
  v.setUint16(28, 32, true); // bits per pixel
  v.setUint32(30, 3, true); // BI_BITFIELDS
  v.setUint32(34, width * height * 4, true);
  v.setInt32(38, 2835, true); // 72 dpi, as pixels per metre
  v.setInt32(42, 2835, true);
  // masks of a little-endian 32-bit word read from bytes R, G, B, A
  v.setUint32(54, 0x000000ff, true);
  v.setUint32(58, 0x0000ff00, true);
  v.setUint32(62, 0x00ff0000, true);
  v.setUint32(66, 0xff000000, true);
  v.setUint32(70, 0x73524742, true); // LCS_sRGB ('sRGB')
  return out;
}

/**
 * Whether any pixel is not fully transparent. Browsers treat a 32-bit BMP whose alpha is 0
 * everywhere as opaque (many writers leave alpha at 0), so such a tile must not be shown.
 */
export function anyVisible(rgba: Uint8ClampedArray | Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 0) return true;
  return false;
}
