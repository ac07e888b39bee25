/**
 * Loads a bundled webview (dist/media) into headless Chromium with the same HTML and CSP the
 * extension serves, and a stub `acquireVsCodeApi` whose `postMessage` reaches a fake host in
 * this process. The host answers requests and pushes messages, as the extension would.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type ConsoleMessage, type Dialog, type Page } from 'playwright-core';
import { webviewHtml } from '../../src/panels/webviewHtml';

export const ROOT = resolve(__dirname, '..', '..', '..');
/** The pages as they ship. */
const DIST = join(ROOT, 'dist', 'media');
/** The same pages with their app on `window` (test/pages, built by esbuild.mjs): what the tests load. */
const TEST_PAGES = join(ROOT, 'out', 'testMedia');

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.map': 'application/json' };

export interface Harness {
  page: Page;
  /** Every message the webview posted, in order. */
  posted: unknown[];
  /** Sends a message to the webview as the extension would. */
  send(message: unknown): Promise<void>;
  /** Waits for a posted message matching `pred`. */
  waitFor<T>(pred: (m: unknown) => boolean, timeoutMs?: number): Promise<T>;
  /** Errors the page threw or logged, and dialogs it tried to open (XSS canaries). */
  pageErrors: string[];
  /** The page's own origin (its HTML, scripts and, with `binaryRelay`, the relayed bytes). */
  origin: string;
  close(): Promise<void>;
}

export type RequestHandler = (request: unknown) => unknown | Promise<unknown>;

let browser: Browser | undefined;
let launchedWith = '';

/**
 * The one headless Chromium of this process. `extraArgs` (e.g. the map benchmark's
 * `--enable-precise-memory-info`) apply when it launches: pass them on the first call.
 */
export async function getBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  if (browser && extraArgs.length && extraArgs.join(' ') !== launchedWith) {
    throw new Error(`Chromium already runs without ${extraArgs.join(' ')}: call getBrowser(args) first`);
  }
  if (browser) return browser;
  launchedWith = extraArgs.join(' ');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--enable-precise-memory-info',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // a page that goes on to the next test's document keeps its renderer (see `takePage`):
      // the back-forward cache would swap the renderer to keep the left document
      '--disable-features=BackForwardCache',
      ...extraArgs,
    ],
  });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  idlePages.clear();
  await browser?.close();
  browser = undefined;
}

/** A page a webview is shown in, and where its posts go while it shows one. */
interface HostPage {
  page: Page;
  receive?: (m: { type?: string; id?: number; request?: unknown }) => Promise<void>;
}

/** How many webviews this process opened: each document's path. */
let opened = 0;

/** Pages that showed a webview and wait, blank, for the next one: by the locale of their context. */
const idlePages = new Map<string, HostPage[]>();

/**
 * A page for a webview. A new page costs Chromium a renderer process and its start: about 1.7
 * CPU s to show the map page, against 0.5 s in a page that showed one before. So a test's
 * webview is a new document (its own origin, script context and state) in a page a finished
 * test left blank, unless it needs a context of its own (`fresh`: benchmarks that time a cold
 * start, and the binary relay's CSP bypass).
 */
async function takePage(opts: { locale?: string; fresh: boolean; bypassCSP: boolean }): Promise<{ host: HostPage; pooled: boolean }> {
  const key = opts.locale ?? '';
  const reused = opts.fresh ? undefined : idlePages.get(key)?.pop();
  if (reused) return { host: reused, pooled: true };
  const context = await (await getBrowser()).newContext({ locale: opts.locale, bypassCSP: opts.bypassCSP });
  const host: HostPage = { page: await context.newPage() };
  await host.page.exposeFunction('__hostReceive', (m: { type?: string; id?: number; request?: unknown }) => host.receive?.(m));
  // the webview's state as VS Code keeps it: what the document's URL brought (see `openWebview`)
  await host.page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    const saved = /^#state=(.*)$/.exec(location.hash);
    let s: unknown = saved ? JSON.parse(decodeURIComponent(saved[1])) : undefined;
    if (saved) history.replaceState(null, '', location.pathname);
    w.acquireVsCodeApi = () => ({
      postMessage: (m: unknown) => (w.__hostReceive as (m: unknown) => void)(JSON.parse(JSON.stringify(m))),
      getState: () => s,
      setState: (v: unknown) => {
        s = v;
        w.__state = v;
      },
    });
  });
  return { host, pooled: !opts.fresh };
}

/** Blanks a page a test is done with and keeps it for the next one, or closes it with its context. */
async function releasePage(host: HostPage, pooled: boolean, locale: string | undefined): Promise<void> {
  host.receive = undefined;
  if (pooled && !host.page.isClosed()) {
    const blank = await host.page.goto('about:blank').then(
      async () => {
        // as a new page has it: no button held, the pointer in the corner
        await host.page.mouse.up();
        await host.page.mouse.move(0, 0);
        return true;
      },
      () => false,
    );
    if (blank && browser) {
      idlePages.set(locale ?? '', [...(idlePages.get(locale ?? '') ?? []), host]);
      return;
    }
  }
  await host.page.context().close();
}

export function assertBuilt(name: string, dir = TEST_PAGES): void {
  for (const f of [`${name}.js`, 'outlines.js']) {
    if (!existsSync(join(dir, f))) throw new Error(`${join(dir, f)} is missing: run \`npm run build\` first`);
  }
}

async function serve(dir: string): Promise<{ server: Server; origin: string; pages: Map<string, string>; relay: Map<string, Uint8Array> }> {
  const pages = new Map<string, string>();
  const relay = new Map<string, Uint8Array>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const relayed = url.pathname.startsWith('/__relay/') ? relay.get(url.pathname) : undefined;
    if (relayed) {
      // each relayed answer is fetched once
      relay.delete(url.pathname);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': relayed.byteLength }).end(relayed);
      return;
    }
    const page = pages.get(url.pathname);
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
      return;
    }
    const file = join(dir, url.pathname.replace(/^\/media\//, ''));
    if (!url.pathname.startsWith('/media/') || !file.startsWith(dir)) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pages, relay };
}

export async function openWebview(
  name: 'map' | 'stacItem' | 'jobGraph',
  opts: {
    onRequest?: RequestHandler;
    state?: unknown;
    imgSources?: string[];
    viewport?: { width: number; height: number };
    colorScheme?: 'dark' | 'light';
    locale?: string;
    /** Translations put in the page as the extension puts `vscode.l10n.bundle` (none: English). */
    l10nBundle?: Record<string, string>;
    /** The page as it ships, dist/media (default: the test page, out/testMedia, with its app on `window`). */
    userPage?: boolean;
    /**
     * Benchmarks only: answers' bytes reach the page as binary over loopback HTTP (the page
     * fetches them from this harness's server, its CSP bypassed for that), as VS Code carries
     * an ArrayBuffer over its binary IPC, instead of as base64 text through the DevTools pipe,
     * which costs the page seconds of parsing for tens of MB. Tests keep the page's CSP whole.
     */
    binaryRelay?: boolean;
    /** Benchmarks only: hears each message the page posts as it arrives (to time it). */
    onPosted?: (m: unknown) => void;
    /** Benchmarks only: a page in a context of its own, as a cold start (default: a page an earlier webview used). */
    fresh?: boolean;
  } = {},
): Promise<Harness> {
  const dir = opts.userPage ? DIST : TEST_PAGES;
  assertBuilt(name, dir);
  const { server, origin, pages, relay } = await serve(dir);
  const html = webviewHtml({
    title: name,
    cspSource: origin,
    scriptUri: `${origin}/media/${name}.js`,
    preScriptUris: name === 'jobGraph' ? [] : [`${origin}/media/outlines.js`],
    styleUri: `${origin}/media/${name}.css`,
    imgSources: opts.imgSources,
    imagery: name === 'map',
    l10nBundle: opts.l10nBundle,
    lang: opts.locale,
  });
  // a path of its own: a late answer to an earlier test's page cannot reach this one (`send`)
  const doc = `/${++opened}/index.html`;
  pages.set(doc, html);
  const { host, pooled } = await takePage({
    locale: opts.locale,
    fresh: opts.fresh === true || opts.binaryRelay === true,
    bypassCSP: opts.binaryRelay === true,
  });
  const { page } = host;
  await page.setViewportSize(opts.viewport ?? { width: 1200, height: 800 });
  await page.emulateMedia({ colorScheme: opts.colorScheme ?? 'dark' });
  const posted: unknown[] = [];
  const pageErrors: string[] = [];
  const waiters: { pred: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];
  const onPageError = (e: Error) => pageErrors.push(`pageerror: ${e.message}`);
  const onDialog = (d: Dialog) => {
    pageErrors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  };
  const onConsole = (m: ConsoleMessage) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  };
  page.on('pageerror', onPageError);
  page.on('dialog', onDialog);
  page.on('console', onConsole);
  // only to this webview's document: a page goes on to show other tests' webviews after `close`
  const url = `${origin}${doc}`;
  const send = (message: unknown) => page.evaluate(([m, to]) => void (location.href === to && window.postMessage(m, '*')), [message as never, url] as const);
  host.receive = async (m) => {
    posted.push(m);
    opts.onPosted?.(m);
    for (const w of [...waiters])
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    if (m?.type === 'request' && typeof m.id === 'number') {
      try {
        const result = await (
          opts.onRequest ??
          (() => {
            throw new Error('no handler');
          })
        )(m.request);
        const bytes = (result as { bytes?: unknown } | undefined)?.bytes;
        if (bytes instanceof Uint8Array && opts.binaryRelay) {
          const path = `/__relay/${m.id}`;
          relay.set(path, bytes);
          await page.evaluate(
            async ([id, url, rest]) => {
              const buf = await (await fetch(url)).arrayBuffer();
              window.postMessage({ type: 'response', id, ok: true, result: { ...rest, bytes: buf } }, '*', [buf]);
            },
            [m.id, `${origin}${path}`, { ...(result as object), bytes: undefined }] as const,
          );
          return;
        }
        if (bytes instanceof Uint8Array) {
          // bytes arrive as an ArrayBuffer, as VS Code delivers them (a JSON copy would not)
          await page.evaluate(
            ([id, b64, rest, to]) => {
              if (location.href !== to) return;
              const bin = atob(b64);
              const buf = new Uint8Array(bin.length);
              for (let i = 0; i < bin.length; i++) buf[i] = bin.charCodeAt(i);
              window.postMessage({ type: 'response', id, ok: true, result: { ...rest, bytes: buf.buffer } }, '*', [buf.buffer]);
            },
            [m.id, Buffer.from(bytes).toString('base64'), { ...(result as object), bytes: undefined }, url] as const,
          );
          return;
        }
        await send({ type: 'response', id: m.id, ok: true, result });
      } catch (e) {
        const err = e as Error & { status?: number };
        await send({ type: 'response', id: m.id, ok: false, error: { message: err.message, status: err.status } });
      }
    }
  };
  // the state rides in the URL, read and dropped before the page's scripts run (`takePage`)
  const saved = opts.state == null ? '' : `#state=${encodeURIComponent(JSON.stringify(opts.state))}`;
  await page.goto(`${url}${saved}`);
  return {
    page,
    posted,
    pageErrors,
    origin,
    send,
    waitFor<T>(pred: (m: unknown) => boolean, timeoutMs = 5000): Promise<T> {
      const found = posted.find(pred);
      if (found) return Promise.resolve(found as T);
      return new Promise<T>((res, rej) => {
        const t = setTimeout(() => rej(new Error('timed out waiting for a webview message')), timeoutMs);
        waiters.push({
          pred,
          resolve: (m) => {
            clearTimeout(t);
            res(m as T);
          },
        });
      });
    },
    async close() {
      page.off('pageerror', onPageError);
      page.off('dialog', onDialog);
      page.off('console', onConsole);
      await releasePage(host, pooled, opts.locale);
      // the page's kept-alive connections would hold the server open
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export const isType =
  (type: string) =>
  (m: unknown): boolean =>
    (m as { type?: string })?.type === type;
