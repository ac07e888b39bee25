/**
 * Parsers that answer instead of throwing, for text from outside (a file, a link, a log line)
 * where "does not parse" is an expected answer the caller words, not a failure. Pure.
 */

/** JSON text's value, or the parser's reason. */
export function parseJson(text: string): { value: unknown } | { reason: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (e) {
    // Recovers from text that is not JSON: the reason is the caller's to say.
    return { reason: e instanceof Error ? e.message : String(e) };
  }
}

/** `decodeURIComponent(text)`, or `fallback` (the text as it came) when its percent-encoding is malformed. */
export function decodedOr(text: string, fallback: string | undefined = text): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    // Recovers from a malformed percent-encoding: the fallback serves.
    return fallback;
  }
}

/** The URL `text` names (against `base`), or undefined when it is not one. */
export function urlOf(text: string, base?: string | URL): URL | undefined {
  return URL.canParse(text, base) ? new URL(text, base) : undefined;
}
