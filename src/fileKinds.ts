/**
 * The files the extension has features for, by the end of their names: activation watches
 * for them (src/deferred.ts) to load those features when one is open. Pure.
 */
/** An insight input (`*.insight.json`): diagnostics, quick fixes, CodeLens. */
export const INSIGHT_FILE_SUFFIX = '.insight.json';
/** A saved search (`*.eosearch.json`): CodeLens, the offer to run it. */
export const SEARCH_FILE_SUFFIX = '.eosearch.json';
/** A shared view (`*.eoview.json`): CodeLens "Open on Map". */
export const VIEW_FILE_SUFFIX = '.eoview.json';

/** An order plan (`*.eoorder.json`): diagnostics, CodeLens "Price" and "Place Order…". */
export const PLAN_FILE_SUFFIX = '.eoorder.json';

export const FEATURE_FILE_SUFFIXES: readonly string[] = [INSIGHT_FILE_SUFFIX, SEARCH_FILE_SUFFIX, VIEW_FILE_SUFFIX, PLAN_FILE_SUFFIX];

/** The task that runs the check command over the workspace's files (src/commands/orderPlans/checkTask.ts). */
export const CHECK_TASK_TYPE = 'eoImagery.check';
