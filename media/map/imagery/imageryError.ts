/** A problem with an imagery file a person can act on: shown as is in the layer list. */
export class ImageryError extends Error {}
