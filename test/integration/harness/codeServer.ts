// Drives a real VS Code (code-server, see scripts/code-server.mjs) from Node: starts the server,
// opens its workbench in headless Chromium with an Extension Development Host payload, and for
// test runs waits for the result file that test/integration/index.ts writes.
// Shared by the integration driver (scripts/test-all.mjs), the e2e harness and the benchmarks.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestRunResult } from '../index';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const EXTENSION_ID = 'eo-imagery.eo-imagery';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface CodeServerOptions {
  port?: number;
  userDataDir: string;
  extensionsDir: string;
  folder?: string;
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  timeoutMs?: number;
  quiet?: boolean;
  restricted?: boolean;
}

export interface CodeServer {
  url: string;
  port: number;
  process: { readonly exitCode: number | null };
  output(): string;
  close(): Promise<void>;
}

interface CodeServerScript {
  ensureCodeServer(): Promise<string>;
  startCodeServer(options: CodeServerOptions): Promise<CodeServer>;
  freePort(): Promise<number>;
}

// tsc (module: commonjs) would turn `import()` into `require()`, which cannot load the .mjs
// script on every Node 20; this keeps a real dynamic import.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export async function codeServerScript(): Promise<CodeServerScript> {
  const file = path.join(REPO_ROOT, 'scripts', 'code-server.mjs');
  return (await importEsm(pathToFileURL(file).href)) as CodeServerScript;
}

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `eo-${prefix}-`));
}

export type Payload = Array<[string, string]>;

/** The workbench URL for a folder, with extension-development entries in the payload. */
export function workbenchUrl(server: CodeServer, options: { folder?: string; payload?: Payload }): string {
  const params: string[] = [];
  if (options.folder) params.push(`folder=${encodeURIComponent(options.folder)}`);
  if (options.payload && options.payload.length) params.push(`payload=${encodeURIComponent(JSON.stringify(options.payload))}`);
  return `${server.url}/${params.length ? `?${params.join('&')}` : ''}`;
}

/** A `vscode-remote://` URI for an absolute path on the machine code-server runs on. */
export function remoteUri(server: CodeServer, absPath: string): string {
  return `vscode-remote://127.0.0.1:${server.port}${absPath}`;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}; install the Debian package "chromium" or set CHROMIUM_PATH`);
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

export interface OpenedWorkbench {
  server: CodeServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Lines the page logged to its console (errors included), for diagnosing failures. */
  consoleLines: string[];
  /** code-server's user data (User/settings.json, logs/): what the editor keeps on disk. */
  userDataDir: string;
  /** The workspace folder the window opened. */
  folder: string;
  close(): Promise<void>;
}

export interface OpenWorkbenchOptions {
  /** Extension folders loaded as under development (default: this repository). */
  extensionDevelopmentPaths?: string[];
  /** A compiled extension-tests module (without .js), run by the extension host. */
  extensionTestsPath?: string;
  /**
   * Extension folders installed as a person would have them (linked into the extensions dir).
   * The payload takes one extensionDevelopmentPath only, so a second extension goes here.
   */
  installedExtensionPaths?: string[];
  folder?: string;
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  viewport?: { width: number; height: number };
  /** Open the folder in Restricted Mode (workspace trust on, the folder not trusted). */
  restricted?: boolean;
  /**
   * Let extensions use the API proposals their manifests declare (the web workbench's
   * `enableProposedApi` payload entry, its form of `--enable-proposed-api`). Only test fixtures
   * declare any (the scripted model's `chatProvider`); EO Imagery declares none.
   */
  enableProposedApi?: boolean;
}

/** Starts a fresh code-server (own temp user data) and opens its workbench in Chromium. */
export async function openWorkbench(options: OpenWorkbenchOptions = {}): Promise<OpenedWorkbench> {
  const script = await codeServerScript();
  const base = makeTempDir('vscode');
  const folder = options.folder ?? path.join(base, 'workspace');
  fs.mkdirSync(folder, { recursive: true });
  const extensionsDir = path.join(base, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  for (const ext of options.installedExtensionPaths ?? []) {
    const manifest = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    fs.symlinkSync(ext, path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`));
  }
  const userDataDir = path.join(base, 'user-data');
  const server = await script.startCodeServer({
    userDataDir,
    extensionsDir,
    folder,
    env: options.env ?? {},
    settings: options.settings ?? {},
    restricted: options.restricted ?? false,
  });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 1400, height: 900 },
      // code-server gzips every response it serves (its compression middleware), 11 MB of
      // workbench.js included, and Chromium inflates them again: CPU spent on both sides of a
      // loopback socket. Asking for the bytes as they are saves ~2 CPU s per window opened.
      extraHTTPHeaders: { 'accept-encoding': 'identity' },
    });
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on('console', (msg) => {
      consoleLines.push(`[${msg.type()}] ${msg.text()}`);
    });
    page.on('pageerror', (err) => consoleLines.push(`[pageerror] ${err.message}`));
    const payload: Payload = (options.extensionDevelopmentPaths ?? [REPO_ROOT]).map((p) => ['extensionDevelopmentPath', remoteUri(server, p)]);
    if (options.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(server, options.extensionTestsPath)]);
    if (options.enableProposedApi) payload.push(['enableProposedApi', '']);
    await page.goto(workbenchUrl(server, { folder, payload }));
    const opened = browser;
    return {
      server,
      browser: opened,
      context,
      page,
      consoleLines,
      userDataDir,
      folder,
      close: async () => {
        await opened.close().catch(() => undefined);
        await server.close();
        // the server's last writes (workspace storage) can land while the tree is removed
        fs.rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await server.close();
    throw err;
  }
}

/** The text of `file` once it exists; throws after `timeoutMs`, or as soon as `stillRunning` names a problem. */
export async function waitForFile(file: string, timeoutMs: number, stillRunning: () => string | undefined = () => undefined): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
    const problem = stillRunning();
    if (problem) throw new Error(problem);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no result after ${Math.round(timeoutMs / 1000)} s (expected ${file})`);
}

export interface ExtensionTestRun {
  /** Absolute path of the compiled tests module, without `.js`. */
  extensionTestsPath: string;
  extensionDevelopmentPaths?: string[];
  installedExtensionPaths?: string[];
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  timeoutMs?: number;
  restricted?: boolean;
  enableProposedApi?: boolean;
}

/**
 * Runs an extension-tests module inside code-server's extension host and returns what it wrote
 * to EO_TEST_RESULT_FILE. Throws (with the server and page logs) when no result ever comes:
 * a run that could not start is a failure, never an empty pass.
 */
export async function runInExtensionHost<T = TestRunResult>(run: ExtensionTestRun): Promise<T> {
  const resultDir = makeTempDir('result');
  const resultFile = path.join(resultDir, 'result.json');
  const workbench = await openWorkbench({
    extensionDevelopmentPaths: run.extensionDevelopmentPaths,
    installedExtensionPaths: run.installedExtensionPaths,
    extensionTestsPath: run.extensionTestsPath,
    env: { ...(run.env ?? {}), EO_TEST_RESULT_FILE: resultFile },
    settings: run.settings,
    restricted: run.restricted,
    enableProposedApi: run.enableProposedApi,
  });
  try {
    const text = await waitForFile(resultFile, run.timeoutMs ?? 180_000, () => {
      if (workbench.server.process.exitCode !== null) return `code-server exited (${workbench.server.process.exitCode}) before the tests wrote a result`;
      if (workbench.page.isClosed()) return 'the workbench page closed before the tests wrote a result';
      return undefined;
    });
    return JSON.parse(text) as T;
  } catch (err) {
    const pageLog = workbench.consoleLines
      .filter((l) => /error|fail|extension/i.test(l))
      .slice(-40)
      .join('\n');
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(
      `${message}\n--- workbench console (filtered) ---\n${pageLog}\n--- code-server output (tail) ---\n${workbench.server.output().slice(-3000)}`,
    );
  } finally {
    await workbench.close();
    fs.rmSync(resultDir, { recursive: true, force: true });
  }
}
