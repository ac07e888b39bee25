/**
 * A value made on first use. The extension uses it to load libraries that activation does
 * not need (undici, the CSV and JSONC parsers, turf): esbuild maps their `require()` to
 * separate files under dist/vendor (see esbuild.mjs), so V8 neither compiles nor runs them
 * until a feature asks.
 */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
