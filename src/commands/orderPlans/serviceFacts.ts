/**
 * What the signed-in service says about the ids an order plan names (projects, AOIs, stores,
 * bandsets, archive scenes), for the plan's checks and completion. Asked only in a trusted
 * workspace and only when signed in; lists are kept a minute, so typing does not send a
 * request per key.
 */
import type { Aoi, Bandset, EoClient, Project, Store } from '../../api';
import type { OrderPlan } from '../../plans/planFile';
import type { ServiceFacts } from '../../plans/checkPlan';
import { loadProjects } from '../orders/common';

const KEEP_MS = 60_000;
/** Scene ids asked per archive search (the search's page). */
const SCENES_PER_SEARCH = 100;

export interface ServiceLists {
  projects: Project[];
  aois: Aoi[];
  stores: Store[];
  bandsets: Bandset[];
}

export class ServiceFactsSource {
  private lists?: { at: number; client: EoClient; value: Promise<ServiceLists> };
  private readonly scenes = new Map<string, boolean>();

  /** The lists of the service `client` talks to, read at most once a minute. */
  listsOf(client: EoClient): Promise<ServiceLists> {
    const now = Date.now();
    if (this.lists && this.lists.client === client && now - this.lists.at < KEEP_MS) return this.lists.value;
    const value = (async (): Promise<ServiceLists> => {
      const aois: Aoi[] = [];
      const [projects, stores, bandsets] = await Promise.all([
        loadProjects(client),
        client.stores.list(),
        client.bandsets.list(),
        (async () => {
          for await (const a of client.aois.iterate({}, { cap: 2000 })) aois.push(a);
        })(),
      ]);
      return { projects, aois, stores, bandsets };
    })();
    this.lists = { at: now, client, value };
    // A failed read is not kept: the next check asks again.
    value.catch(() => (this.lists?.value === value ? (this.lists = undefined) : undefined));
    return value;
  }

  async factsFor(client: EoClient, plan: OrderPlan): Promise<ServiceFacts> {
    const lists = await this.listsOf(client);
    const ids = [...new Set(plan.items.flatMap((i) => (i.kind === 'archive' ? i.scenes.map((s) => s.id) : [])))];
    const unknown = ids.filter((id) => !this.scenes.has(id));
    for (let i = 0; i < unknown.length; i += SCENES_PER_SEARCH) {
      const chunk = unknown.slice(i, i + SCENES_PER_SEARCH);
      const found = await client.archives.search({ ids: chunk, limit: chunk.length });
      const have = new Set(found.features.map((f) => f.id));
      for (const id of chunk) this.scenes.set(id, have.has(id));
    }
    const named = <T>(list: readonly T[], id: (x: T) => string, name: (x: T) => string): Map<string, string> => new Map(list.map((x) => [id(x), name(x)]));
    return {
      projects: named(
        lists.projects,
        (p) => p.id,
        (p) => p.title || p.name,
      ),
      aois: named(
        lists.aois,
        (a) => a.aoi_id,
        (a) => a.name,
      ),
      stores: named(
        lists.stores,
        (s) => s.id,
        (s) => s.name,
      ),
      bandsets: named(
        lists.bandsets,
        (b) => b.id,
        (b) => b.name,
      ),
      scenes: new Set(ids.filter((id) => this.scenes.get(id))),
    };
  }

  /** Forget everything (after a sign-in or sign-out). */
  clear(): void {
    this.lists = undefined;
    this.scenes.clear();
  }
}
