/** Projects: read-only, page_num/page_size paging, `{message}` error bodies. */
import type { Project } from '../../api/records';
import { forbidden, notFound } from '../errors';
import type { Route } from '../router';
import type { ProjectRec } from '../state';
import { pathId, queryInt } from '../validate';

function view(p: ProjectRec, withMembers: boolean): Project {
  const { owner: _o, members_count, ...rest } = p;
  return withMembers ? { ...rest, members_count } : rest;
}

export const projectRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v0/projects',
    style: 'project',
    handler: (r) => {
      const num = queryInt(r.query, 'page_num', 1, 1_000_000) ?? 1;
      const size = queryInt(r.query, 'page_size', 1, 100) ?? 10;
      const mine = r.app.state.projects.filter((p) => p.owner === r.user.id);
      return { status: 200, json: { count: mine.length, projects: mine.slice((num - 1) * size, num * size).map((p) => view(p, true)) } };
    },
  },
  {
    method: 'GET',
    path: '/v0/projects/:id',
    style: 'project',
    handler: (r) => {
      const id = pathId(r.params.id, 'id');
      const p = r.app.state.projects.find((x) => x.id === id);
      if (!p) throw notFound('project', id);
      if (p.owner !== r.user.id) throw forbidden(`project ${JSON.stringify(id)}`);
      return { status: 200, json: { project: view(p, false) } };
    },
  },
];
