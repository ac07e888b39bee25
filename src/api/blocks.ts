/** Processing blocks, and running insights on an AOI (the run endpoints are beyond docs/service-interface.md). */
import { ApiError } from './errors';
import { checkLimit, listParser, offsetPageParser, recordParser } from './listing';
import { normalizeBlock } from './normalize';
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
import type { Block, Insight, InsightRunRequest } from './records';
import { block, insight } from './schemas';
import { assertShape, num, obj, opt, str } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';

const blockList = listParser<Block>('blocks', block);
const parseBlocks = (body: unknown): Block[] => blockList(body).map(normalizeBlock);
const parseBlock = (body: unknown): Block => normalizeBlock(assertShape<Block>(body, block, 'block'));
const parseInsights = offsetPageParser<Insight>('insights', insight);
const parseRun = recordParser<{ id: string; message?: string }>(obj({ id: str, message: opt(str) }), 'run');
const parseEstimate = recordParser<{ estimate: number }>(obj({ estimate: num }), '');

export class BlocksApi {
  constructor(private readonly t: Transport) {}

  /** All blocks, optionally of one execution mode. */
  list(q: { mode?: 'insight' | 'workflow' | (string & {}) } = {}, o?: CallOptions): Promise<Block[]> {
    return this.t.json({ method: 'GET', path: '/v0/blocks', query: q }, parseBlocks, o);
  }

  /**
   * Insight blocks by name (and version): each `spec.inputs` is the template of a run's
   * inputs. The interface's `GET /v0/blocks/insights?name=` comes first; when the service
   * answers 404 to it, the OpenAPI's paths are used instead: `/v0/blocks/{name}` (every
   * version) or `/v0/blocks/{name}/versions/{version}` (docs/service-interface.md, "Blocks").
   */
  async insights(q: { name?: string; version?: string } = {}, o?: CallOptions): Promise<Block[]> {
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

  /** Start an insight run (201 `{id, message}`). Sent once; `estimate` is forced off. */
  run(aoiId: string, req: InsightRunRequest, o?: CallOptions): Promise<{ id: string; message?: string }> {
    const { estimate: _e, ...body } = req;
    return this.t.json({ method: 'POST', path: pathOf`/v0/aoi/${aoiId}/insights`, body }, parseRun, o);
  }

  /** Token cost of a run, without running it. */
  async estimate(aoiId: string, req: InsightRunRequest, o?: CallOptions): Promise<number> {
    const res = await this.t.json(
      { method: 'POST', path: pathOf`/v0/aoi/${aoiId}/insights`, body: { ...req, estimate: true } },
      parseEstimate,
      o,
    );
    return res.estimate;
  }

  /** One page of the insights run on an AOI. */
  insightsPage(aoiId: string, q: OffsetQuery = {}, o?: CallOptions): Promise<Page<Insight>> {
    checkLimit('offset', q.offset, 0);
    checkLimit('limit', q.limit, 1);
    return this.t.json(
      { method: 'GET', path: pathOf`/v0/aoi/${aoiId}/insights`, query: { offset: q.offset ?? 0, limit: q.limit ?? 10 } },
      parseInsights,
      o,
    );
  }

  iterateInsights(aoiId: string, opts: IterateOptions = {}): AsyncGenerator<Insight, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.insightsPage(aoiId, { offset, limit }, { signal }),
      (i) => i.id,
      { method: 'GET', path: pathOf`/v0/aoi/${aoiId}/insights` },
      opts,
    );
  }
}
