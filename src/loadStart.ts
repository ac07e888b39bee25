/** Imported first by extension.ts, so this runs before any other module of the bundle. */
export const loadStart = performance.now();
