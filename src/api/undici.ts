/** undici (about half a megabyte), loaded with the first request rather than at activation. */
import { lazy } from '../lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const undici = lazy(() => require('undici') as typeof import('undici'));
