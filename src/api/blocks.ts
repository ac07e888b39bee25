/** Processing blocks (insight runs are in `insightRuns.ts`). */
import { ApiError } from './errors';
import { normalizeBlock } from './normalize';
import type { Block } from './records';
import { block } from './schemas';
import { anyValue, arr, assertShape, obj } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';
import { readRecords, withUnreadable, type WithUnreadable } from './unreadable';

const blockListEnvelope = obj({ blocks: arr(anyValue) });

/** Every block that reads; one that does not fit is left out with the reason, not the whole list. */
function parseBlocks(body: unknown): Block[] & WithUnreadable {
  const list = assertShape<{ blocks: unknown[] }>(body, blockListEnvelope, '').blocks;
  const { items, unreadable } = readRecords(
    list,
    (i) => `blocks[${i}]`,
    (raw, where) => normalizeBlock(assertShape<Block>(raw, block, where), where),
  );
  return withUnreadable(items, unreadable);
}

const parseBlock = (body: unknown): Block => normalizeBlock(assertShape<Block>(body, block, 'block'), 'block');

export class BlocksApi {
  constructor(private readonly t: Transport) {}

  /** All blocks, optionally of one execution mode. */
  list(q: { mode?: 'insight' | 'workflow' | (string & {}) } = {}, o?: CallOptions): Promise<Block[] & WithUnreadable> {
    return this.t.json({ method: 'GET', path: '/v0/blocks', query: q }, parseBlocks, o);
  }

  /**
   * Insight blocks by name (and version): each `spec.inputs` is the template of a run's
   * inputs. The interface's `GET /v0/blocks/insights?name=` comes first; when the service
   * answers 404 to it, the OpenAPI's paths are used instead: `/v0/blocks/{name}` (every
   * version) or `/v0/blocks/{name}/versions/{version}` (docs/service-interface.md, "Blocks").
   */
  async insights(q: { name?: string; version?: string } = {}, o?: CallOptions): Promise<Block[] & WithUnreadable> {
    try {
      return await this.t.json({ method: 'GET', path: '/v0/blocks/insights', query: q }, parseBlocks, o);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404 || !q.name) throw e;
      if (q.version) return [await this.version(q.name, q.version, o)];
      return this.t.json({ method: 'GET', path: pathOf`/v0/blocks/${q.name}` }, parseBlocks, o);
    }
  }

  /** One version of a block (OpenAPI `GET /v0/blocks/{name}/versions/{version}`). */
  version(name: string, version: string, o?: CallOptions): Promise<Block> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/blocks/${name}/versions/${version}` }, parseBlock, o);
  }
}
