/** jsonc-parser, loaded when an insight file is first checked or edited (see src/lazy.ts). */
import { lazy } from '../lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const jsonc = lazy(() => require('jsonc-parser') as typeof import('jsonc-parser'));
