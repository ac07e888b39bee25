/**
 * Loads the imagery chunk (`imagery.js`, geotiff.js and proj4 inside) the first time a layer
 * needs it, with this page's nonce, from beside the map script: the map bundle itself stays
 * small.
 */
import type { ImageryChunk } from './imagery/chunk';

// captured while the map script runs: afterwards `currentScript` is null
const self = document.currentScript as HTMLScriptElement | null;
let loading: Promise<ImageryChunk> | undefined;

export function loadImageryChunk(): Promise<ImageryChunk> {
  loading ??= new Promise<ImageryChunk>((resolve, reject) => {
    const w = window as unknown as { __eoImageryChunk?: ImageryChunk };
    if (w.__eoImageryChunk) return resolve(w.__eoImageryChunk);
    if (!self?.src) return reject(new Error('The imagery code cannot be located.'));
    const s = document.createElement('script');
    s.nonce = self.nonce;
    s.src = self.src.replace(/[^/]*\.js(\?.*)?$/, 'imagery.js');
    s.onload = () => (w.__eoImageryChunk ? resolve(w.__eoImageryChunk) : reject(new Error('The imagery code did not load.')));
    s.onerror = () => reject(new Error('The imagery code could not be loaded.'));
    document.head.appendChild(s);
  }).catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}
