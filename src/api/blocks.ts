/** Processing blocks (insight runs are in `insightRuns.ts`). */
import { listParser } from './listing';
import type { Block } from './records';
import { block } from './schemas';
import { type CallOptions, type Transport } from './transport';

const parseBlocks = listParser<Block>('blocks', block);

export class BlocksApi {
  constructor(private readonly t: Transport) {}

  /** All blocks, optionally of one execution mode. */
  list(q: { mode?: 'insight' | 'workflow' | (string & {}) } = {}, o?: CallOptions): Promise<Block[]> {
    return this.t.json({ method: 'GET', path: '/v0/blocks', query: q }, parseBlocks, o);
  }

  /** Insight blocks by name (and version): each `spec.inputs` is the template of a run's inputs. */
  insights(q: { name?: string; version?: string } = {}, o?: CallOptions): Promise<Block[]> {
    return this.t.json({ method: 'GET', path: '/v0/blocks/insights', query: q }, parseBlocks, o);
  }
}
