/**
 * The service sandbox: a faithful local implementation of the imagery service's interface,
 * with a seeded world, on loopback. `startSandbox({port: 0})` is what tests, `npm start` and
 * the extension's "Try the sandbox" use; `cli.ts` wraps it for `npm run sandbox`.
 */
import type { AddressInfo } from 'node:net';
import { App } from './app';
import { Clock, type SandboxClock } from './clock';
import { loadState, saveState } from './persist';
import { Router, type Route } from './router';
import { aoiDownloadRoutes } from './routes/aoiDownloads';
import { aoiRoutes } from './routes/aois';
import { archiveRoutes } from './routes/archives';
import { catalogRoutes } from './routes/catalogs';
import { catalogueRoutes } from './routes/catalogue';
import { imageryRoutes } from './routes/imagery';
import { visualizationPngRoutes } from './routes/visualizationPng';
import { visualizationStyleRoutes } from './routes/visualizationStyles';
import { workflowRoutes } from './routes/workflows';
import { insightRoutes } from './routes/insights';
import { orderRoutes } from './routes/orders';
import { projectRoutes } from './routes/projects';
import { storeRoutes } from './routes/stores';
import { type FaultRule, SandboxServer } from './server';
import type { State, User } from './state';
import { seedState } from './world/seed';
import { seedWorkflows } from './world/workflows';
import { buildWorld } from './world/world';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback only. */
  host?: '127.0.0.1';
  seed?: number;
  /** Multiplies record counts: archive items (1,250 per unit), orders (25 per user per unit). */
  scale?: number;
  latencyMs?: number;
  /** Share of requests answered 500 (marked `x-sandbox-injected`). */
  failRate?: number;
  /** Share of responses cut off mid-body by destroying the connection. */
  resetRate?: number;
  /** Persist state as JSON here (atomic writes); reloaded on the next start. */
  dataDir?: string;
  /**
   * The address the links it writes (signed files, STAC hrefs) point at, when it answers behind
   * a proxy, as a service behind a load balancer knows its public address. Default: its own.
   */
  publicUrl?: string;
  /** Sandbox clock speed relative to wall time (statuses move `speed` times faster). */
  speed?: number;
  tokens?: { alice?: string; bob?: string };
  /** Start of the sandbox clock (ms since epoch); defaults to now. */
  startTime?: number;
  /** For tests of slow clients: how long a request may take to send its headers. */
  headersTimeoutMs?: number;
  /** Told `METHOD /path STATUS` as each answer ends: the service's request log (`--log-requests`). */
  onRequest?: (line: string) => void;
}

export interface SandboxHandle {
  url: string;
  tokens: { alice: string; bob: string };
  clock: SandboxClock;
  faults: { add(rule: FaultRule): void; clear(): void };
  /** `METHOD /path` of the last 2,000 requests, oldest first (tests count what was sent). */
  readonly requests: readonly string[];
  close(): Promise<void>;
  /** The stored state, for tests that check nothing changed (read-only by convention). */
  readonly state: State;
  readonly users: { alice: User; bob: User };
}

export type { FaultRule };

/** Every route the sandbox serves (tests walk them all). */
export function sandboxRoutes(): Route[] {
  return [
    { method: 'GET', path: '/ping', auth: false, handler: () => ({ status: 200, json: 'pong' }) },
    ...projectRoutes,
    ...aoiRoutes,
    ...insightRoutes,
    ...catalogueRoutes,
    ...orderRoutes,
    ...archiveRoutes,
    ...catalogRoutes,
    ...storeRoutes,
    ...imageryRoutes,
    ...visualizationPngRoutes,
    ...visualizationStyleRoutes,
    ...workflowRoutes,
    ...aoiDownloadRoutes,
  ];
}

function checkRate(name: string, v: number | undefined): number {
  const x = v ?? 0;
  if (!Number.isFinite(x) || x < 0 || x > 1) throw new RangeError(`${name} must be between 0 and 1`);
  return x;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const seed = opts.seed ?? 42;
  const scale = opts.scale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1000) throw new RangeError('scale must be in (0, 1000]');
  const speed = opts.speed ?? 1;
  if (!Number.isFinite(speed) || speed < 0) throw new RangeError('speed must be >= 0');
  const host = opts.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new RangeError('the sandbox listens on loopback (127.0.0.1) only');
  const tokens = { alice: opts.tokens?.alice ?? 'sandbox-alice', bob: opts.tokens?.bob ?? 'sandbox-bob' };
  if (tokens.alice === tokens.bob || !/^\S+$/.test(tokens.alice) || !/^\S+$/.test(tokens.bob))
    throw new RangeError('tokens must be distinct and without spaces');

  const start = opts.startTime ?? Date.now();
  const clock = new Clock(start, speed);
  const world = buildWorld(seed, scale);
  let state: State | undefined;
  if (opts.dataDir) {
    state = await loadState(opts.dataDir);
    if (state && (state.seed !== seed || state.scale !== scale)) {
      throw new Error(`${opts.dataDir} holds state for seed ${state.seed} scale ${state.scale}; start with those or use another --data-dir`);
    }
  }
  if (state && !state.workflows) {
    // A state file from before workflows: they are seeded into it as into a new world.
    state.workflows = [];
    state.jobs = [];
    for (const user of world.users) seedWorkflows(world, state, user, start);
  }
  if (!state) {
    state = seedState(world, start);
    if (opts.dataDir) await saveState(opts.dataDir, state);
  }
  const app = new App(world, state, clock, opts.dataDir);
  const [alice, bob] = world.users;
  const router = new Router();
  router.add(...sandboxRoutes());
  const server = new SandboxServer(app, router, {
    latencyMs: Math.max(0, opts.latencyMs ?? 0),
    failRate: checkRate('failRate', opts.failRate),
    resetRate: checkRate('resetRate', opts.resetRate),
    tokens: new Map([
      [tokens.alice, alice],
      [tokens.bob, bob],
    ]),
    headersTimeoutMs: opts.headersTimeoutMs,
    onRequest: opts.onRequest,
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  const own = `http://${host}:${port}`;
  app.base = opts.publicUrl?.replace(/\/+$/, '') ?? own;
  return {
    url: own,
    tokens,
    clock,
    faults: { add: (rule) => server.addFault(rule), clear: () => server.clearFaults() },
    requests: server.requests,
    state,
    users: { alice, bob },
    close: () =>
      new Promise<void>((resolve) => {
        server.server.close(() => resolve());
        server.server.closeAllConnections();
      }),
  };
}
