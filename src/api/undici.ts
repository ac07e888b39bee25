/**
 * The HTTP library, loaded with the first request rather than at activation: esbuild.mjs
 * turns this `require` into one of dist/vendor/undici.js, built from `undiciCore.ts`.
 */
import { lazy } from '../lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const undici = lazy(() => require('./undiciCore') as typeof import('./undiciCore'));
