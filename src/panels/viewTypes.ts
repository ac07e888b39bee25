/**
 * The webview panels' view types, on their own so that activation can register the panels'
 * serializers (src/deferred.ts) without loading the panels.
 */
export const MAP_VIEW_TYPE = 'eoImagery.map';
export const STAC_VIEW_TYPE = 'eoImagery.stacItem';
export const JOB_GRAPH_VIEW_TYPE = 'eoImagery.jobGraph';
export const PANEL_VIEW_TYPES = [MAP_VIEW_TYPE, STAC_VIEW_TYPE, JOB_GRAPH_VIEW_TYPE] as const;
export type PanelViewType = (typeof PANEL_VIEW_TYPES)[number];
