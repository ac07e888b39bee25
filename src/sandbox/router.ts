/** A small router: method + path pattern (`/v0/aoi/:aoi_id`) to a handler. */
import type { App } from './app';
import { badRequest } from './errors';
import type { User } from './state';

/** Error body layout: `{error: {...}}` with string details, the same with object details
 * (archive endpoints), or the free-form `{message}` of the project endpoints. */
export type ErrorStyle = 'default' | 'project' | 'archive';

export interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Request headers, lower-case names (only what a handler needs beyond auth, e.g. Range). */
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
  body: unknown;
  user: User;
  app: App;
  now: number;
}

export interface Res {
  status: number;
  json?: unknown;
  raw?: string | Buffer;
  /** A large body produced piece by piece (imagery byte ranges): never held whole. */
  stream?: { length: number; chunks: () => Iterable<Buffer> };
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  style?: ErrorStyle;
  /** Default true; `/ping` and signed file URLs are the exceptions. */
  auth?: boolean;
  /** POST/PUT/PATCH bodies are required JSON unless this says otherwise ('optional': JSON or nothing). */
  body?: 'json' | 'none' | 'optional';
  handler: (r: Req) => Res | Promise<Res>;
}

interface Compiled extends Route {
  re: RegExp;
  names: string[];
}

export type Match = { kind: 'route'; route: Route; params: Record<string, string> } | { kind: 'method'; allow: string[]; style: ErrorStyle } | { kind: 'none' };

export class Router {
  private readonly routes: Compiled[] = [];

  add(...routes: Route[]): void {
    for (const r of routes) {
      const names: string[] = [];
      const src = r.path
        .split('/')
        .map((seg) => {
          if (seg.startsWith(':')) {
            names.push(seg.slice(1));
            return '([^/]+)';
          }
          return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('/');
      this.routes.push({ ...r, re: new RegExp(`^${src}/?$`), names });
    }
  }

  match(method: string, path: string): Match {
    const allow: string[] = [];
    let style: ErrorStyle = 'default';
    for (const r of this.routes) {
      const m = r.re.exec(path);
      if (!m) continue;
      if (r.method !== method && !(method === 'HEAD' && r.method === 'GET')) {
        allow.push(r.method);
        style = r.style ?? 'default';
        continue;
      }
      const params: Record<string, string> = {};
      r.names.forEach((n, i) => {
        try {
          params[n] = decodeURIComponent(m[i + 1]);
        } catch {
          throw badRequest(n, 'is not valid percent-encoding');
        }
      });
      return { kind: 'route', route: r, params };
    }
    return allow.length > 0 ? { kind: 'method', allow: [...new Set(allow)], style } : { kind: 'none' };
  }
}
