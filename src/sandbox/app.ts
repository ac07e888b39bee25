/** What handlers share: the static world, the stored state, the clock, persistence, signing. */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isObj } from '../api/shape';
import type { Clock } from './clock';
import { Persister } from './persist';
import type { State, User } from './state';
import type { World } from './world/world';

export class App {
  base = '';
  private readonly key = randomBytes(32);
  private readonly persister?: Persister;

  constructor(
    readonly world: World,
    readonly state: State,
    readonly clock: Clock,
    dataDir?: string,
  ) {
    if (dataDir) this.persister = new Persister(dataDir, state);
  }

  newId(): string {
    return randomUUID();
  }

  user(id: string): User | undefined {
    return this.world.users.find((u) => u.id === id);
  }

  /** Called after every change; resolves once the change is on disk (when persisting). */
  async commit(): Promise<void> {
    if (this.persister) await this.persister.save(this.state);
  }

  /** An opaque, tamper-evident token: base64url(JSON) + "." + HMAC. */
  sign(payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const mac = createHmac('sha256', this.key).update(body).digest('base64url');
    return `${body}.${mac}`;
  }

  verify(token: string): Record<string, unknown> | undefined {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined || token.length > 4096) return undefined;
    const want = createHmac('sha256', this.key).update(body).digest();
    let got: Buffer;
    try {
      got = Buffer.from(mac, 'base64url');
    } catch {
      return undefined;
    }
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    try {
      const v: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return isObj(v) ? v : undefined;
    } catch {
      return undefined;
    }
  }
}
