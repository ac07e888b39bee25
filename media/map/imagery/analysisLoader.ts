/**
 * Loads the chart chunk (`analysis.js` and its stylesheet, uPlot inside) from beside the
 * imagery chunk, with this page's nonce, the first time the inspector or a histogram opens.
 */
import type { AnalysisChunk } from '../analysis/chunk';

// captured while the imagery chunk runs: afterwards `currentScript` is null
const self = document.currentScript as HTMLScriptElement | null;
let loading: Promise<AnalysisChunk> | undefined;

export function loadAnalysisChunk(): Promise<AnalysisChunk> {
  loading ??= new Promise<AnalysisChunk>((resolve, reject) => {
    const w = window as unknown as { __eoAnalysisChunk?: AnalysisChunk };
    if (w.__eoAnalysisChunk) return resolve(w.__eoAnalysisChunk);
    if (!self?.src) return reject(new Error('The chart code cannot be located.'));
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.nonce = self.nonce;
    css.href = self.src.replace(/[^/]*\.js(\?.*)?$/, 'analysis.css');
    document.head.appendChild(css);
    const s = document.createElement('script');
    s.nonce = self.nonce;
    s.src = self.src.replace(/[^/]*\.js(\?.*)?$/, 'analysis.js');
    s.onload = () => (w.__eoAnalysisChunk ? resolve(w.__eoAnalysisChunk) : reject(new Error('The chart code did not load.')));
    s.onerror = () => reject(new Error('The chart code could not be loaded.'));
    document.head.appendChild(s);
  }).catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}
