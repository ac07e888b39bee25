import type { RequestEvent } from '../api';

/** The walkthrough's steps that complete on what the extension sees go by over HTTP. */
export type ObservedStep = 'signedIn' | 'projectBrowsed' | 'archiveSearched' | 'orderPriced';

/**
 * Which walkthrough step a successful request completes, if any: expanding a project lists its
 * AOIs, the map's searches post to the imagery or archive search, and pricing an order is the
 * dry run both order flows send first. Pure, so the rule is tested without a window.
 */
export function stepOfRequest(e: Pick<RequestEvent, 'method' | 'path' | 'status' | 'requestBody'>): ObservedStep | undefined {
  if (e.status === undefined || e.status < 200 || e.status > 299) return undefined;
  const [path, query = ''] = e.path.split('?', 2);
  if (e.method === 'GET' && path === '/v0/aois' && isProjectFilter(new URLSearchParams(query))) return 'projectBrowsed';
  if (e.method === 'POST' && (path === '/v0/search' || path === '/v0/archives/search')) return 'archiveSearched';
  if (e.method === 'POST' && path === '/v0/orders' && isDryRun(e.requestBody)) return 'orderPriced';
  return undefined;
}

function isProjectFilter(q: URLSearchParams): boolean {
  return q.has('project_ids') || q.has('project_id');
}

function isDryRun(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { dry_run?: unknown }).dry_run === true;
}

/** Each observed step's id in the manifest (`contributes.walkthroughs[0].steps[].id`). */
export const MANIFEST_STEP: Readonly<Record<ObservedStep, string>> = {
  signedIn: 'signIn',
  projectBrowsed: 'browseProject',
  archiveSearched: 'searchArchive',
  orderPriced: 'priceOrder',
};
