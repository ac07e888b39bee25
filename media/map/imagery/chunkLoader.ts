/**
 * Loads a chunk that sits beside the imagery chunk (`analysis.js`, `timelapse.js`) with this
 * page's nonce, once: the chunk sets a global the promise resolves to. The page's CSP allows
 * only scripts carrying the nonce, so nothing else could run.
 */

// captured while the imagery chunk runs: afterwards `currentScript` is null
const self = document.currentScript as HTMLScriptElement | null;
const loading = new Map<string, Promise<unknown>>();

export function loadChunk<T>(file: string, global: string, what: string, css?: string): Promise<T> {
  let p = loading.get(file) as Promise<T> | undefined;
  if (p) return p;
  p = new Promise<T>((resolve, reject) => {
    const w = window as unknown as Record<string, T | undefined>;
    const have = w[global];
    if (have) return resolve(have);
    if (!self?.src) return reject(new Error(`The ${what} cannot be located.`));
    const beside = (name: string) => (self.src as string).replace(/[^/]*\.js(\?.*)?$/, name);
    if (css) {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.nonce = self.nonce;
      link.href = beside(css);
      document.head.appendChild(link);
    }
    const s = document.createElement('script');
    s.nonce = self.nonce;
    s.src = beside(file);
    s.onload = () => {
      const got = w[global];
      if (got) resolve(got);
      else reject(new Error(`The ${what} did not load.`));
    };
    s.onerror = () => reject(new Error(`The ${what} could not be loaded.`));
    document.head.appendChild(s);
  }).catch((e: unknown) => {
    loading.delete(file);
    throw e;
  });
  loading.set(file, p);
  return p;
}
