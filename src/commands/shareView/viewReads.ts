/**
 * The reads of one shared view as it opens, with the opener's token: each distinct record read
 * once (an AOI's asset listing is walked once for every layer and date on that AOI, only as
 * far as the farthest asset asked for), and every request the opening causes (pages and
 * retries too) counted against the view's budget. A view comes from a link anyone can write:
 * past the budget nothing more is sent, and what could not be read is left out and named.
 * No vscode.
 */
import type { EoClient } from '../../api/client';
import type { Aoi, ArchiveItem, Asset, Satellite, Visualization } from '../../api/records';
import { withGate } from '../../api/requestGate';
import { MAX_ASSETS_WALKED } from '../../panels/mapSources';

/**
 * The most requests opening one view may make. A view names at most 200 layers and 200 dates,
 * each one record, read alone in the worst honest case (200 archive items and a slider of 200
 * more): 400. Listings shared between layers stay well inside it; a hostile view that would
 * walk 200 listings of 1,000 assets stops here.
 */
export const VIEW_REQUEST_BUDGET = 400;

/** A read the view's budget had no room for: not sent. */
export class OverBudget extends Error {
  constructor(readonly budget: number) {
    super(`more than ${budget} requests`);
  }
}

/** A listing read item by item, each page once whoever asks, and only as far as asked. */
class Walk<T> {
  private readonly seen = new Map<string, T>();
  private done = false;
  private failure?: { error: unknown };
  private pulling?: Promise<void>;

  constructor(
    private readonly items: AsyncIterator<T>,
    private readonly idOf: (t: T) => string,
  ) {}

  /** The record `id`, or undefined once the listing ended without it. */
  async find(id: string): Promise<T | undefined> {
    while (!this.seen.has(id) && !this.done) await this.pull();
    return this.seen.get(id);
  }

  /** Every record of the listing (up to its cap). */
  async all(): Promise<T[]> {
    while (!this.done) await this.pull();
    return [...this.seen.values()];
  }

  get size(): number {
    return this.seen.size;
  }

  private pull(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    this.pulling ??= this.items
      .next()
      .then(
        (r) => {
          if (r.done) this.done = true;
          else this.seen.set(this.idOf(r.value), r.value);
        },
        (error: unknown) => {
          // Every asker after this one gets the same answer, and nothing is asked again.
          this.failure = { error };
          throw error;
        },
      )
      .finally(() => (this.pulling = undefined));
    return this.pulling;
  }
}

export class ViewReads {
  /** Requests made so far, retries and pages included. */
  requests = 0;
  private reading = true;
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly assetWalks = new Map<string, Walk<Asset>>();
  private readonly visualizationWalks = new Map<string, Walk<Visualization>>();

  constructor(
    readonly client: EoClient,
    readonly budget = VIEW_REQUEST_BUDGET,
  ) {}

  /**
   * Runs the opening's reads: each request they cause is counted, and refused past the budget.
   * Once `work` is done the gate stands aside (the map's own reads later are not the view's).
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const gate = {
      beforeRequest: (): void => {
        if (!this.reading) return;
        if (this.requests >= this.budget) throw new OverBudget(this.budget);
        this.requests++;
      },
    };
    try {
      return await withGate(gate, work);
    } finally {
      this.reading = false;
    }
  }

  aoi(id: string): Promise<Aoi> {
    return this.once(`aoi:${id}`, () => this.client.aois.get(id));
  }

  archiveItem(collection: string, id: string): Promise<ArchiveItem> {
    return this.once(`archiveItem:${collection}/${id}`, () => this.client.archives.item(collection, id));
  }

  /**
   * One asset of an AOI (the service has no GET for one asset: its listing is walked, once for
   * every asset of that AOI the view names). `beyondCap`: the listing holds more than the walk
   * reads, so an asset not found may be further on.
   */
  async asset(aoiId: string, id: string): Promise<{ asset?: Asset; beyondCap: boolean }> {
    const walk = this.assetWalk(aoiId);
    const asset = await walk.find(id);
    return { asset, beyondCap: !asset && walk.size >= MAX_ASSETS_WALKED };
  }

  /** Every asset of an AOI, up to the cap (a visualization's source mosaic is among them). */
  assets(aoiId: string): Promise<Asset[]> {
    return this.assetWalk(aoiId).all();
  }

  /** The satellite an AOI's imagery comes from; undefined when it cannot be read (the bands then go by name). */
  async satellite(aoiId: string): Promise<Satellite | undefined> {
    try {
      const [aoi, sats] = await Promise.all([this.aoi(aoiId), this.once('satellites', () => this.client.search.satellites())]);
      return sats.find((s) => s.id === aoi.satellite_id);
    } catch {
      // Recovers from an AOI or satellite list that cannot be read: the bands then go by name.
      return undefined;
    }
  }

  visualization(aoiId: string, id: string): Promise<Visualization | undefined> {
    let walk = this.visualizationWalks.get(aoiId);
    if (!walk) {
      walk = new Walk(this.client.visualizations.iterate(aoiId, {}, { pageSize: 100 }), (v) => v.id);
      this.visualizationWalks.set(aoiId, walk);
    }
    return walk.find(id);
  }

  private assetWalk(aoiId: string): Walk<Asset> {
    let walk = this.assetWalks.get(aoiId);
    if (!walk) {
      walk = new Walk(this.client.aois.iterateAssets(aoiId, { pageSize: 100, cap: MAX_ASSETS_WALKED }), (a) => a.id);
      this.assetWalks.set(aoiId, walk);
    }
    return walk;
  }

  /** One read per key, shared by whoever asks (a failure too: it is not asked again). */
  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let got = this.memo.get(key) as Promise<T> | undefined;
    if (!got) {
      got = read();
      this.memo.set(key, got);
    }
    return got;
  }
}

/**
 * Runs `task` for each item, at most `limit` at a time, started in the list's order, so that
 * when a budget runs out it is the last ones that are left out.
 */
export async function inOrder<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
