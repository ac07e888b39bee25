/** Cloud stores: secrets are checked by type and never kept or returned. */
import { STORE_RULES, type Store, type StoreType } from '../../api/records';
import { badRequest, conflict, notFound } from '../errors';
import type { Route } from '../router';
import type { StoreRec } from '../state';
import { isoZ } from '../timefmt';
import { asEnum, asObject, asString, opt, pathId, req } from '../validate';

export function storeView(s: StoreRec): Store {
  const { owner: _o, secret_keys: _k, ...rest } = s;
  return rest;
}

function stringMap(v: unknown, field: string): Record<string, string> {
  const o = asObject(v, field);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(o)) out[k] = asString(x, `${field}.${k}`, { max: 20_000 });
  if (Object.keys(out).length > 50) throw badRequest(field, 'has more than 50 keys');
  return out;
}

export const storeRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v0/stores',
    handler: (r) => ({ status: 200, json: { stores: r.app.state.stores.filter((s) => s.owner === r.user.id).map(storeView) } }),
  },
  {
    method: 'POST',
    path: '/v0/stores',
    handler: async (r) => {
      const b = asObject(r.body, 'body');
      const name = req(b, 'name', (v, f) => asString(v, f, { nonEmpty: true, max: 100 }));
      const type = req(b, 'type', (v, f) => asEnum(v, f, Object.keys(STORE_RULES) as StoreType[]));
      const configs = req(b, 'configs', stringMap);
      const secrets = req(b, 'secrets', stringMap);
      const labels = opt(b, 'labels', stringMap) ?? {};
      const rule = STORE_RULES[type];
      const missing = [
        ...rule.configs.filter((k) => !configs[k]).map((k) => `configs.${k}`),
        ...rule.secrets.filter((k) => !secrets[k]).map((k) => `secrets.${k}`),
      ];
      if (missing.length > 0) throw badRequest(missing.join(', '), `missing for a ${type} store: ${missing.join(', ')}`);
      if (r.app.state.stores.some((s) => s.owner === r.user.id && s.name === name))
        throw conflict('name', `a store named ${JSON.stringify(name)} already exists`);
      const ts = isoZ(r.now);
      const rec: StoreRec = {
        id: r.app.newId(),
        name,
        type,
        configs,
        labels,
        created_at: ts,
        updated_at: ts,
        created_by: r.user.id,
        owner: r.user.id,
        secret_keys: Object.keys(secrets).sort(),
      };
      r.app.state.stores.push(rec);
      await r.app.commit();
      return { status: 201, json: storeView(rec) };
    },
  },
  {
    method: 'DELETE',
    path: '/v0/stores/:id',
    body: 'none',
    handler: async (r) => {
      const id = pathId(r.params.id, 'id');
      const i = r.app.state.stores.findIndex((s) => s.id === id && s.owner === r.user.id);
      if (i < 0) throw notFound('store', id);
      r.app.state.stores.splice(i, 1);
      await r.app.commit();
      return { status: 204 };
    },
  },
];
