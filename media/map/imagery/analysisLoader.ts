/**
 * Loads the chart chunk (`analysis.js` and its stylesheet, uPlot inside) from beside the
 * imagery chunk, with this page's nonce, the first time the inspector or a histogram opens.
 */
import type { AnalysisChunk } from '../analysis/chunk';
import { loadChunk } from './chunkLoader';

export function loadAnalysisChunk(): Promise<AnalysisChunk> {
  return loadChunk<AnalysisChunk>('analysis.js', '__eoAnalysisChunk', 'chart code', 'analysis.css');
}
