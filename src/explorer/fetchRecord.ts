import type { EoClient } from '../api';
import type { RecordKind } from './tree';

/**
 * Reads one record by kind and id: what reveal needs for a record that is not among the
 * loaded pages, and what "Refresh" on a JSON document uses. `parentId` is the collection of
 * an archive item, the AOI of a visualization or insight run, the project of a workflow or
 * the workflow of a job. Undefined when the service has no way to
 * read that kind alone.
 */
export async function fetchRecord(client: EoClient, kind: RecordKind, id: string, parentId?: string, signal?: AbortSignal): Promise<object | undefined> {
  const o = { signal };
  switch (kind) {
    case 'project':
      return client.projects.get(id, o);
    case 'aoi':
      return client.aois.get(id, o);
    case 'order':
      return client.orders.get(id, o);
    case 'orderItem': {
      // The listing carries the tasks; a read by id may not.
      const page = await client.orderItems.listPage({ ids: [id], limit: 1 }, o);
      return page.items.find((i) => i.id === id) ?? (await client.orderItems.get(id, o));
    }
    case 'catalog':
      return client.catalogs.get(id, o);
    case 'delivery':
      return client.deliveries.get(id, o);
    case 'store':
      return (await client.stores.list(o)).find((s) => s.id === id);
    case 'collection':
      return client.archives.collection(id, o);
    case 'archiveItem':
      return parentId ? client.archives.item(parentId, id, o) : undefined;
    case 'visualization': {
      if (!parentId) return undefined;
      const page = await client.visualizations.listPage(parentId, { visualization_id: id, limit: 1 }, o);
      return page.items.find((v) => v.id === id);
    }
    case 'insightRun': {
      if (!parentId) return undefined;
      return (await client.insightRuns.list(parentId, { id }, o)).find((r) => r.id === id);
    }
    case 'workflow':
      // The read by id carries the spec and the validation errors the list leaves out.
      return parentId ? client.workflows.get(id, parentId, o) : undefined;
    case 'job':
      return parentId ? client.workflows.job(parentId, id, o) : undefined;
    case 'asset':
    case 'task':
    case 'jobTask':
      return undefined;
  }
}
