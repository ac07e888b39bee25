/**
 * The use case of an order item. The service requires it on every item (OpenAPI
 * `docOriginalOrderItem.usecase`) but documents no list of values, only the example
 * "agriculture": so it is free text, prefilled, and an empty answer takes the default.
 * Never absent from a request (docs/service-interface.md, "Orders"). Pure: the step that
 * asks for it is in common.ts.
 */
/** What an item is for when the person does not say: the plainest truthful answer. */
export const DEFAULT_USECASE = 'general';

/** The use case to send: the person's words, or the default when they left it empty. */
export function usecaseOf(entered: string | undefined): string {
  const t = (entered ?? '').trim();
  return t === '' ? DEFAULT_USECASE : t.slice(0, 200);
}

export function usecasePrompt(): string {
  return `Use case: what the imagery is for, e.g. agriculture, forestry, flood mapping (empty: "${DEFAULT_USECASE}")`;
}
