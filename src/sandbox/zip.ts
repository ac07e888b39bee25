/**
 * A minimal ZIP writer (stored entries, no compression): enough for a real, openable archive.
 * Entries are written as they are read: each local header says its CRC and sizes follow the
 * data (a data descriptor, general purpose bit 3), so an archive of large files is streamed
 * without holding or computing it whole first.
 */
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `b`, continuing from `crc` (the value for the bytes before it). */
function crc32(b: Buffer, crc = 0): number {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  /** Exact byte length of the entry's data. */
  length: number;
  chunks: () => Iterable<Buffer>;
}

const DATA_DESCRIPTOR = 0x0008;
const UTF8_NAME = 0x0800;

/** The archive of `entries`: its exact length, and its bytes piece by piece. */
export function zipStream(entries: readonly ZipEntry[]): { length: number; chunks: () => Iterable<Buffer> } {
  const names = entries.map((e) => Buffer.from(e.name, 'utf8'));
  const flags = entries.map((e) => DATA_DESCRIPTOR | (/^[\x20-\x7e]*$/.test(e.name) ? 0 : UTF8_NAME));
  const locals = entries.reduce((n, e, i) => n + 30 + names[i].length + e.length + 16, 0);
  const centralSize = names.reduce((n, name) => n + 46 + name.length, 0);
  return {
    length: locals + centralSize + 22,
    *chunks() {
      const crcs: number[] = [];
      const offsets: number[] = [];
      let offset = 0;
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        const local = Buffer.alloc(30);
        local.writeUInt32LE(0x04034b50, 0);
        local.writeUInt16LE(20, 4);
        local.writeUInt16LE(flags[i], 6);
        local.writeUInt16LE(names[i].length, 26);
        offsets.push(offset);
        yield local;
        yield names[i];
        let crc = 0;
        let size = 0;
        for (const chunk of e.chunks()) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          yield chunk;
        }
        if (size !== e.length) throw new Error(`zip entry ${e.name} has ${size} bytes, not the ${e.length} announced`);
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(crc, 4);
        descriptor.writeUInt32LE(size, 8);
        descriptor.writeUInt32LE(size, 12);
        yield descriptor;
        crcs.push(crc);
        offset += 30 + names[i].length + size + 16;
      }
      for (let i = 0; i < entries.length; i++) {
        const central = Buffer.alloc(46);
        central.writeUInt32LE(0x02014b50, 0);
        central.writeUInt16LE(20, 4);
        central.writeUInt16LE(20, 6);
        central.writeUInt16LE(flags[i], 8);
        central.writeUInt32LE(crcs[i], 16);
        central.writeUInt32LE(entries[i].length, 20);
        central.writeUInt32LE(entries[i].length, 24);
        central.writeUInt16LE(names[i].length, 28);
        central.writeUInt32LE(offsets[i], 42);
        yield central;
        yield names[i];
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(entries.length, 8);
      end.writeUInt16LE(entries.length, 10);
      end.writeUInt32LE(centralSize, 12);
      end.writeUInt32LE(offset, 16);
      yield end;
    },
  };
}

/** A small archive in memory (manifests, an insight run's files). */
export function zipOf(files: { name: string; data: Buffer }[]): Buffer {
  return Buffer.concat([...zipStream(files.map((f) => ({ name: f.name, length: f.data.length, chunks: () => [f.data] }))).chunks()]);
}
