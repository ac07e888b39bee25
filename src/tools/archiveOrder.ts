/**
 * What the price and order tools share: the scenes named by `collection/id`, the project by
 * name, the order item's name and use case, read into the same entries and request the Order
 * wizard makes (`archiveOrderParts`).
 */
import { l10n } from 'vscode';
import type { EoClient } from '../api';
import { emptyOrderEntries, type OrderEntries } from '../commands/orders/common';
import { archiveOrderParts, defaultOrderName, resolveItems } from '../commands/orders/orderArchive';
import { usecaseOf } from '../orders/usecase';
import { inStep } from '../ui/showError';
import { Fields, itemRefs, type Read } from './input';
import { findProject, type Found } from './lookup';

export interface ArchiveOrderInput {
  items: { collection: string; id: string }[];
  project: string;
  name?: string;
  usecase?: string;
}

export function readArchiveOrder(input: unknown): Read<ArchiveOrderInput> {
  const f = new Fields(input);
  return f.done({
    items: itemRefs(f, 'items'),
    project: f.string('project', true, 200),
    name: f.string('name', false, 200),
    usecase: f.string('usecase', false, 200),
  });
}

export type ArchiveOrder = { state: OrderEntries } & NonNullable<ReturnType<typeof archiveOrderParts>>;

export async function archiveOrderOf(client: EoClient, input: ArchiveOrderInput): Promise<Found<ArchiveOrder>> {
  const project = await findProject(client, input.project);
  if (!project.ok) return project;
  const items = await inStep(l10n.t('Reading the archive items'), () => resolveItems(client, input.items));
  const parts = archiveOrderParts(items);
  if (!parts) return { ok: false, reason: l10n.t('These archive items have no footprint (Polygon) to order.') };
  const state = emptyOrderEntries(input.name || defaultOrderName(items));
  state.projectId = project.value.id;
  state.projectLabel = project.value.title || project.value.name;
  state.usecase = usecaseOf(input.usecase);
  return { ok: true, value: { state, ...parts } };
}
