/** Command ids of the insight and index features (the manifest declares the same ids). */
export const INSIGHT_COMMANDS = {
  newInsightInput: 'eoImagery.newInsightInput',
  validateInsight: 'eoImagery.validateInsight',
  estimateInsight: 'eoImagery.estimateInsight',
  runInsight: 'eoImagery.runInsight',
  addAssetSource: 'eoImagery.addInsightAssetSource',
  // Insight runs (src/commands/insights/runs.ts, outputs.ts)
  showInsightOutputs: 'eoImagery.showInsightOutputs',
  openInsightInput: 'eoImagery.openInsightInput',
  openInsightInputAsNewFile: 'eoImagery.openInsightInputAsNewFile',
  deleteInsightRun: 'eoImagery.deleteInsightRun',
  downloadInsightRun: 'eoImagery.downloadInsightRun',
  openInsightOutput: 'eoImagery.openInsightOutput',
  showInsightOutputOnMap: 'eoImagery.showInsightOutputOnMap',
  useInsightOutputAsInput: 'eoImagery.useInsightOutputAsInput',
  listIndices: 'eoImagery.listIndices',
  createIndex: 'eoImagery.createIndex',
  createVisualization: 'eoImagery.createVisualization',
  showVisualizationLegend: 'eoImagery.showVisualizationLegend',
} as const;
