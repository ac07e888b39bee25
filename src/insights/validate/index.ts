// The validator core: parsed file + spec lookup → diagnostics with offsets and quick fixes.
export * from './types';
export * from './validate';
