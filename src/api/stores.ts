/** Cloud stores. Secrets are write-only: sent on creation, never returned or logged. */
import { listParser, recordParser } from './listing';
import type { CreateStoreRequest, Store } from './records';
import { store } from './schemas';
import { pathOf, type CallOptions, type Transport } from './transport';

const parseList = listParser<Store>('stores', store);
const parseOne = recordParser<Store>(store, 'store');

export class StoresApi {
  constructor(private readonly t: Transport) {}

  list(o?: CallOptions): Promise<Store[]> {
    return this.t.json({ method: 'GET', path: '/v0/stores' }, parseList, o);
  }

  /** Register a store. 400 names every missing config/secret key; 409 name taken. Sent once. */
  create(req: CreateStoreRequest, o?: CallOptions): Promise<Store> {
    return this.t.json({ method: 'POST', path: '/v0/stores', body: req }, parseOne, o);
  }

  /** 204 on success. Never retried. */
  async delete(id: string, o?: CallOptions): Promise<void> {
    await this.t.send({ method: 'DELETE', path: pathOf`/v0/stores/${id}` }, o);
  }
}
