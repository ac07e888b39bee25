/** The colour maps live beside the index grammar (src/api/colormaps.ts): the sandbox's PNG renderer uses the same tables. */
export { COLORMAP_NAMES, colormapGradient, colormapLut } from '../../../src/api/colormaps';
