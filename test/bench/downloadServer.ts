/**
 * A large file served as an object store serves a signed link (src/sandbox/objects.ts: ETag,
 * Range, If-Range), in a process of its own as the service's storage is, so that neither
 * client shares its event loop. Generated as it is sent: nothing is written to disk. Tells its
 * parent the port it listens on.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { HttpError } from '../../src/sandbox/errors';
import { asStoredObject, streamedEtag } from '../../src/sandbox/objects';
import type { Res } from '../../src/sandbox/router';

export const DOWNLOAD_BYTES = Number(process.env.EO_BENCH_DOWNLOAD_BYTES) || 1 << 30;
const CHUNK = 1 << 20;
const base = Buffer.alloc(CHUNK);
for (let i = 0; i < CHUNK; i += 4) base.writeUInt32LE((i * 2654435761) >>> 0, i);

function* chunks(): Iterable<Buffer> {
  for (let at = 0; at < DOWNLOAD_BYTES; at += CHUNK) yield at + CHUNK <= DOWNLOAD_BYTES ? base : base.subarray(0, DOWNLOAD_BYTES - at);
}

if (require.main === module) {
  const server = http.createServer((req, res) => {
    let out: Res;
    try {
      out =
        req.url === '/big.bin'
          ? asStoredObject(req.headers, { status: 200, stream: { length: DOWNLOAD_BYTES, chunks } }, { etag: streamedEtag('big', DOWNLOAD_BYTES), modified: 0 })
          : { status: 404, raw: 'not here' };
    } catch (e) {
      out = { status: e instanceof HttpError ? e.status : 500, raw: '', headers: e instanceof HttpError ? e.headers : undefined };
    }
    res.writeHead(out.status, { ...out.headers, 'content-length': String(out.stream?.length ?? Buffer.byteLength(out.raw ?? '')) });
    if (out.stream) pipeline(Readable.from(out.stream.chunks()), res, () => undefined);
    else res.end(out.raw);
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('disconnect', () => process.exit(0));
}
