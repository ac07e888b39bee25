/**
 * The sidebar's views, on their own so that activation can create them (src/deferred.ts)
 * without loading the sidebar. Pure.
 */
export type ViewId = 'projects' | 'orders' | 'catalog' | 'stores' | 'archive';

export const VIEW_IDS: readonly ViewId[] = ['projects', 'orders', 'catalog', 'stores', 'archive'];

/** The stores view is a flat list: no "Collapse All" in its title bar. */
export const showsCollapseAll = (id: ViewId): boolean => id !== 'stores';
