/** Deliveries of catalog entries to registered cloud stores. */
import { ApiError } from './errors';
import { IdListForm } from './idLists';
import { listParser } from './listing';
import { poll, isFinalStatus, type PollOptions } from './poll';
import type { CreateDeliveriesRequest, Delivery, DeliveryFilter } from './records';
import { delivery } from './schemas';
import type { CallOptions, Transport } from './transport';

const parseList = listParser<Delivery>('deliveries', delivery);

export class DeliveriesApi {
  constructor(
    private readonly t: Transport,
    private readonly idLists: IdListForm = new IdListForm(),
  ) {}

  /**
   * Start deliveries; each names either `catalog_ids` or `order_item_ids` (checked here,
   * before anything is sent). Sent once, or twice only when the first answer was a 400
   * asking for the other list too (see `IdListForm`).
   */
  create(req: CreateDeliveriesRequest, o?: CallOptions): Promise<Delivery[]> {
    return this.idLists.send(req.deliveries, (deliveries) =>
      this.t.json({ method: 'POST', path: '/v0/catalogs/deliveries', body: { ...req, deliveries } }, parseList, o),
    );
  }

  list(filter: DeliveryFilter = {}, o?: CallOptions): Promise<Delivery[]> {
    return this.t.json({ method: 'GET', path: '/v0/catalogs/deliveries', query: { ...filter } }, parseList, o);
  }

  /** One delivery by id (the service has no single-delivery path; this filters the list). */
  async get(deliveryId: string, o?: CallOptions): Promise<Delivery> {
    const found = (await this.list({ delivery_id: deliveryId }, o)).find((d) => d.delivery_id === deliveryId);
    if (!found) {
      throw new ApiError({
        kind: 'http',
        status: 404,
        method: 'GET',
        path: `/v0/catalogs/deliveries?delivery_id=${encodeURIComponent(deliveryId)}`,
        detailMessage: `delivery ${deliveryId} not found`,
      });
    }
    return found;
  }

  /** Re-read a delivery until `SUCCESS` or `FAILED`. */
  waitUntilDone(deliveryId: string, opts: Omit<PollOptions<Delivery>, 'isFinal'> = {}): Promise<Delivery> {
    return poll((signal) => this.get(deliveryId, { signal }), {
      what: `delivery ${deliveryId}`,
      path: '/v0/catalogs/deliveries',
      ...opts,
      isFinal: (d) => isFinalStatus('delivery', d.status),
    });
  }
}
