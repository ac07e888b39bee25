/** Bandsets (needed by tasking order items). */
import { listParser } from './listing';
import type { Bandset } from './records';
import { bandset } from './schemas';
import type { CallOptions, Transport } from './transport';

const parseList = listParser<Bandset>('bandsets', bandset);

export class BandsetsApi {
  constructor(private readonly t: Transport) {}

  list(o?: CallOptions): Promise<Bandset[]> {
    return this.t.json({ method: 'GET', path: '/v0/bandsets' }, parseList, o);
  }
}
