/**
 * Every chat tool's name, as contributed in package.json (`contributes.languageModelTools`);
 * test/unit/manifest checks the two agree. Pure.
 */
export const TOOLS = {
  listProjects: 'eoImagery_listProjects',
  listAois: 'eoImagery_listAois',
  searchArchive: 'eoImagery_searchArchive',
  searchImagery: 'eoImagery_searchImagery',
  describeItem: 'eoImagery_describeItem',
  priceOrder: 'eoImagery_priceOrder',
  placeOrder: 'eoImagery_orderArchive',
  listBlocks: 'eoImagery_listBlocks',
  createInsightInput: 'eoImagery_createInsightInput',
  validateInsight: 'eoImagery_validateInsight',
  showOnMap: 'eoImagery_showOnMap',
  estimateRun: 'eoImagery_estimateInsightRun',
  startRun: 'eoImagery_startInsightRun',
  status: 'eoImagery_status',
} as const;

export type ToolName = keyof typeof TOOLS;

/** The `@eo` chat participant's id, as contributed in package.json (`contributes.chatParticipants`). */
export const PARTICIPANT_ID = 'eoImagery.eo';
