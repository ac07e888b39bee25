/**
 * Puts a page's app on `window` for tests and benchmarks to read, only when the extension
 * marked the page (`data-expose-app`: it runs for its tests or its development, see
 * src/panels/webviewHtml.ts). A user's page keeps its app to itself.
 */
export function exposeApp(name: 'eoMap' | 'eoStac' | 'eoJobGraph', app: object): void {
  if (document.body.hasAttribute('data-expose-app')) (window as unknown as Record<string, object>)[name] = app;
}
