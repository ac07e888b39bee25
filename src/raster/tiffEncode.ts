/**
 * A GeoTIFF file from band arrays: classic little-endian TIFF, band-sequential strips
 * (PlanarConfiguration 2, so each band is copied as is), uncompressed, georeferenced by a tie
 * point and pixel size with the EPSG code in the GeoKey directory, plus GDAL's no-data and
 * band metadata tags (names, scale, offset) so GDAL reads physical values.
 *
 * Why not geotiff.js's `writeArrayBuffer`: it does write the tie point, pixel size and
 * `ProjectedCSTypeGeoKey` GDAL needs, but it encodes sample by sample (about 30 s for a
 * 2048 × 2048 × 4 uint16 clip) and leaves ExtraSamples inconsistent for more than one
 * non-RGB band (libtiff warns on every open).
 */

export type BandArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

export interface GeoTiffInput {
  width: number;
  height: number;
  bands: BandArray[];
  epsg: number;
  /** Top-left corner of the top-left pixel, in the CRS's units. */
  originX: number;
  originY: number;
  pixelWidth: number;
  /** Positive: rows go south. */
  pixelHeight: number;
  nodata?: number;
  names?: string[];
  scale?: number[];
  offset?: number[];
}

const SHORT = 3;
const LONG = 4;
const ASCII = 2;
const DOUBLE = 12;
const SIZES: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8 };

function sampleFormat(a: BandArray): number {
  if (a instanceof Float32Array || a instanceof Float64Array) return 3;
  if (a instanceof Int8Array || a instanceof Int16Array || a instanceof Int32Array) return 2;
  return 1;
}

function xml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Tag {
  code: number;
  type: number;
  values: number[] | string;
}

export function encodeGeoTiff(g: GeoTiffInput): ArrayBuffer {
  const { width, height, bands } = g;
  if (!bands.length) throw new Error('A clip needs at least one band.');
  const bytesPer = bands[0].BYTES_PER_ELEMENT;
  if (bands.some((b) => b.length !== width * height || b.BYTES_PER_ELEMENT !== bytesPer || b.constructor !== bands[0].constructor)) {
    throw new Error('Every band of a clip must have the same type and size.');
  }
  const file = geoTiffFile({ ...g, type: bands[0].constructor as BandType, bandCount: bands.length });
  file.bands.forEach((view, i) => view.set(bands[i] as never));
  return file.buffer;
}

/** A typed-array class a band can be. */
export type BandType = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): BandArray; readonly BYTES_PER_ELEMENT: number };

/** The file before its pixels: everything but the bands written, and each band's place in it. */
export interface GeoTiffFile {
  buffer: ArrayBuffer;
  /** One view per band into `buffer`, row-major: filling them fills the file. */
  bands: BandArray[];
}

/**
 * The whole file allocated once, its header and tags written and its bands left to fill in
 * place: the extension host's clip decodes tiles straight into the file it writes, with no
 * second 30 MB copy.
 */
export function geoTiffFile(g: Omit<GeoTiffInput, 'bands'> & { type: BandType; bandCount: number }): GeoTiffFile {
  const { width, height } = g;
  if (g.bandCount < 1) throw new Error('A clip needs at least one band.');
  const bytesPer = g.type.BYTES_PER_ELEMENT;
  const probe = new g.type(new ArrayBuffer(bytesPer), 0, 1);
  const bands = Array.from({ length: g.bandCount }, () => probe);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('This machine is big-endian; clips cannot be written here.');
  const n = bands.length;
  const rowBytes = width * bytesPer;
  const rowsPerStrip = Math.max(1, Math.min(height, Math.floor((256 * 1024) / rowBytes)));
  const stripsPerBand = Math.ceil(height / rowsPerStrip);
  const dataBytes = n * height * rowBytes;
  if (dataBytes > 3.9e9) throw new Error('The clip would be over 4 GB; pick a coarser overview or fewer bands.');

  const geographic = g.epsg === 4326 || g.epsg === 4258 || g.epsg === 4269;
  const geoKeys = [1, 1, 0, 3, 1024, 0, 1, geographic ? 2 : 1, 1025, 0, 1, 1, geographic ? 2048 : 3072, 0, 1, g.epsg];
  const meta: string[] = [];
  (g.names ?? []).forEach((name, i) => meta.push(`<Item name="DESCRIPTION" sample="${i}" role="description">${xml(name)}</Item>`));
  (g.scale ?? []).forEach((v, i) => {
    if (v !== 1 || (g.offset?.[i] ?? 0) !== 0) meta.push(`<Item name="SCALE" sample="${i}" role="scale">${v}</Item>`);
  });
  (g.offset ?? []).forEach((v, i) => {
    if (v !== 0 || (g.scale?.[i] ?? 1) !== 1) meta.push(`<Item name="OFFSET" sample="${i}" role="offset">${v}</Item>`);
  });

  const stripCount = n * stripsPerBand;
  const tags: Tag[] = [
    { code: 256, type: LONG, values: [width] },
    { code: 257, type: LONG, values: [height] },
    { code: 258, type: SHORT, values: bands.map(() => bytesPer * 8) },
    { code: 259, type: SHORT, values: [1] },
    { code: 262, type: SHORT, values: [1] },
    { code: 273, type: LONG, values: new Array<number>(stripCount).fill(0) },
    { code: 277, type: SHORT, values: [n] },
    { code: 278, type: LONG, values: [rowsPerStrip] },
    { code: 279, type: LONG, values: new Array<number>(stripCount).fill(0) },
    { code: 284, type: SHORT, values: [2] },
    ...(n > 1 ? [{ code: 338, type: SHORT, values: new Array<number>(n - 1).fill(0) }] : []),
    { code: 339, type: SHORT, values: bands.map(sampleFormat) },
    { code: 33550, type: DOUBLE, values: [g.pixelWidth, g.pixelHeight, 0] },
    { code: 33922, type: DOUBLE, values: [0, 0, 0, g.originX, g.originY, 0] },
    { code: 34735, type: SHORT, values: geoKeys },
    ...(meta.length ? [{ code: 42112, type: ASCII, values: `<GDALMetadata>${meta.join('')}</GDALMetadata>\0` }] : []),
    // GDAL_NODATA is text; GDAL reads "nan" as NaN (floating-point clips)
    ...(g.nodata !== undefined && (Number.isFinite(g.nodata) || Number.isNaN(g.nodata))
      ? [{ code: 42113, type: ASCII, values: `${Number.isNaN(g.nodata) ? 'nan' : g.nodata}\0` }]
      : []),
  ];
  const count = (t: Tag) => (typeof t.values === 'string' ? t.values.length : t.values.length);
  const ifdSize = 2 + tags.length * 12 + 4;
  let extra = 0;
  for (const t of tags) {
    const size = count(t) * SIZES[t.type];
    if (size > 4) extra += size + (size & 1);
  }
  // rounded up to 8 bytes so that each band can be a typed-array view of the file (Float64Array needs it)
  const dataStart = Math.ceil((8 + ifdSize + extra) / 8) * 8;
  // strip offsets and sizes, band by band
  const offsets = tags.find((t) => t.code === 273)?.values as number[];
  const sizes = tags.find((t) => t.code === 279)?.values as number[];
  for (let b = 0, k = 0; b < n; b++) {
    for (let s = 0; s < stripsPerBand; s++, k++) {
      const rows = Math.min(rowsPerStrip, height - s * rowsPerStrip);
      offsets[k] = dataStart + b * height * rowBytes + s * rowsPerStrip * rowBytes;
      sizes[k] = rows * rowBytes;
    }
  }
  const out = new ArrayBuffer(dataStart + dataBytes);
  const dv = new DataView(out);
  const u8 = new Uint8Array(out);
  u8[0] = 0x49;
  u8[1] = 0x49;
  dv.setUint16(2, 42, true);
  dv.setUint32(4, 8, true);
  dv.setUint16(8, tags.length, true);
  let at = 8 + ifdSize;
  tags.forEach((t, i) => {
    const e = 10 + i * 12;
    dv.setUint16(e, t.code, true);
    dv.setUint16(e + 2, t.type, true);
    dv.setUint32(e + 4, count(t), true);
    const size = count(t) * SIZES[t.type];
    let p = e + 8;
    if (size > 4) {
      dv.setUint32(e + 8, at, true);
      p = at;
      at += size + (size & 1);
    }
    if (typeof t.values === 'string') {
      for (let k = 0; k < t.values.length; k++) u8[p + k] = t.values.charCodeAt(k) & 0x7f;
      return;
    }
    for (const v of t.values) {
      if (t.type === SHORT) dv.setUint16(p, v, true);
      else if (t.type === LONG) dv.setUint32(p, v, true);
      else dv.setFloat64(p, v, true);
      p += SIZES[t.type];
    }
  });
  dv.setUint32(8 + 2 + tags.length * 12, 0, true); // no next IFD
  return { buffer: out, bands: bands.map((_, i) => new g.type(out, dataStart + i * height * rowBytes, width * height)) };
}
