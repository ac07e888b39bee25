/** Command ids of the insight and index features (the manifest declares the same ids). */
export const INSIGHT_COMMANDS = {
  newInsightInput: 'eoImagery.newInsightInput',
  validateInsight: 'eoImagery.validateInsight',
  estimateInsight: 'eoImagery.estimateInsight',
  runInsight: 'eoImagery.runInsight',
  addAssetSource: 'eoImagery.addInsightAssetSource',
  listIndices: 'eoImagery.listIndices',
  createIndex: 'eoImagery.createIndex',
  createVisualization: 'eoImagery.createVisualization',
  showVisualizationLegend: 'eoImagery.showVisualizationLegend',
} as const;
