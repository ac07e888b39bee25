/** Projects: read-only (created in the service's web interface), page_num/page_size paging. */
import { iteratePageNum, type IterateOptions } from './paging';
import type { Project } from './records';
import { checkLimit, recordParser } from './listing';
import { project } from './schemas';
import { arr, int, obj } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';

export interface ProjectPage {
  items: Project[];
  /** The service's `count`: projects in all pages. */
  total: number;
  pageNum: number;
  pageSize: number;
}

const parseList = recordParser<{ count: number; projects: Project[] }>(obj({ count: int, projects: arr(project) }), '');
const parseOne = recordParser<{ project: Project }>(obj({ project }), '');

export class ProjectsApi {
  constructor(private readonly t: Transport) {}

  /**
   * One page; `pageNum` starts at 1, `pageSize` 1..100 (service defaults 1 and 10). The wire
   * names `page_num`/`page_size` are accepted too.
   */
  async listPage(q: { pageNum?: number; pageSize?: number; page_num?: number; page_size?: number } = {}, o?: CallOptions): Promise<ProjectPage> {
    const pageNum = q.pageNum ?? q.page_num ?? 1;
    const pageSize = q.pageSize ?? q.page_size ?? 10;
    checkLimit('pageNum', pageNum, 1);
    checkLimit('pageSize', pageSize, 1);
    const body = await this.t.json({ method: 'GET', path: '/v0/projects', query: { page_num: pageNum, page_size: pageSize } }, parseList, o);
    return { items: body.projects, total: body.count, pageNum, pageSize };
  }

  /** Every project, page by page. */
  iterate(opts: IterateOptions = {}): AsyncGenerator<Project, void, undefined> {
    return iteratePageNum(
      ({ pageNum, pageSize, signal }) => this.listPage({ pageNum, pageSize }, { signal }),
      (p) => p.id,
      { method: 'GET', path: '/v0/projects' },
      opts,
    );
  }

  async get(id: string, o?: CallOptions): Promise<Project> {
    const body = await this.t.json({ method: 'GET', path: pathOf`/v0/projects/${id}` }, parseOne, o);
    return body.project;
  }
}
