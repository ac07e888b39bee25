/**
 * Status values of every record kind, sorted into the five looks the sidebar uses. Pure: no
 * `vscode` here, so the mapping is unit-testable; `look.ts` turns a category into an icon.
 */
export type StatusCategory = 'success' | 'inProgress' | 'failed' | 'draft' | 'cancelled' | 'neutral';

const CATEGORY: Record<string, StatusCategory> = {
  // AOIs, assets, visualizations, downloads
  success: 'success',
  processing: 'inProgress',
  // the OpenAPI's in-between values (docs/service-interface.md, "States"): AOIs move
  // started → running → success, may be `updating` again later, and a `partial_success`
  // may still complete; assets and visualizations are `creating` until done
  started: 'inProgress',
  running: 'inProgress',
  updating: 'inProgress',
  creating: 'inProgress',
  partial_success: 'inProgress',
  in_progress: 'inProgress',
  created: 'inProgress',
  pending: 'inProgress',
  queued: 'inProgress',
  failed: 'failed',
  error: 'failed',
  // orders
  paid: 'success',
  unpaid: 'draft',
  payment_in_progress: 'inProgress',
  refund: 'cancelled',
  'partial-refund': 'cancelled',
  'partial-monthly': 'inProgress',
  // order items and tasks
  draft: 'draft',
  active: 'inProgress',
  fulfilled: 'success',
  partially_fulfilled: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  // tasks: SUBMITTED is waiting for capture; EXPIRED passed its window and cannot move again
  submitted: 'inProgress',
  expired: 'cancelled',
  // workflow tasks: waiting for the tasks they depend on, or never run because one failed
  waiting: 'inProgress',
  skipped: 'cancelled',
  // deliveries, task delivery status, feasibility
  successful: 'success',
  weak_success: 'success',
  delivered: 'success',
};

export function statusCategory(status: string | undefined | null): StatusCategory {
  if (!status) return 'neutral';
  return CATEGORY[status.trim().toLowerCase()] ?? 'neutral';
}

/**
 * Statuses the service may still move on from (a draft becomes active once paid), so a
 * visible node in one of them is polled. Unknown values count as final: never poll blindly.
 */
export function isFinalStatus(status: string | undefined | null): boolean {
  const c = statusCategory(status);
  return c !== 'inProgress' && c !== 'draft';
}

/** Statuses read as words through the one enum label (`src/format.ts`). */
export { enumLabel as statusLabel } from '../format';
