/**
 * The API client (`./index` and everything it imports, about 90 KB minified), loaded with the
 * connection's first client rather than at activation: esbuild.mjs turns this `require` into
 * one of dist/client.js, which holds the client's modules once for both bundles of the
 * extension (dist/features.js takes them from it). Activation needs only the errors and the
 * types, which it imports from their own modules.
 */
import { lazy } from '../lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadApi = lazy(() => require('./index') as typeof import('./index'));
