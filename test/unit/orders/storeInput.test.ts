import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STORE_RULES, type StoreType } from '../../../src/api/records';
import { checkStoreName, parseLabels, redactSecrets, validateStoreRequest } from '../../../src/commands/stores/storeInput';

function complete(type: StoreType): { configs: Record<string, string>; secrets: Record<string, string> } {
  const configs = Object.fromEntries(STORE_RULES[type].configs.map((k) => [k, `${k}-value`]));
  const secrets = Object.fromEntries(STORE_RULES[type].secrets.map((k) => [k, `${k}-secret`]));
  return { configs, secrets };
}

describe('store registration checks', () => {
  it('accepts a complete request of every type', () => {
    for (const type of Object.keys(STORE_RULES) as StoreType[]) {
      assert.deepEqual(validateStoreRequest({ name: 'my store', type, ...complete(type) }), [], type);
    }
  });

  it('lists every missing config and secret key by name, never a value', () => {
    const { configs, secrets } = complete('AZBLOB');
    delete configs.region;
    secrets.client_secret = '  ';
    delete secrets.tenant_id;
    const problems = validateStoreRequest({ name: 'az', type: 'AZBLOB', configs, secrets });
    assert.deepEqual(problems, ['Missing AZBLOB config: region.', 'Missing AZBLOB secret: tenant_id, client_secret.']);
    assert.ok(!problems.join(' ').includes('secret-value'));
  });

  it('every type takes the OpenAPI configs {bucket, region, path_prefix?}: bucket and region required', () => {
    for (const type of Object.keys(STORE_RULES) as StoreType[]) {
      const secrets = Object.fromEntries(STORE_RULES[type].secrets.map((k) => [k, 'x-secret']));
      assert.deepEqual(validateStoreRequest({ name: 's', type, configs: { bucket: 'b', region: 'r' }, secrets }), [], `${type} without path_prefix`);
      assert.deepEqual(validateStoreRequest({ name: 's', type, configs: { path_prefix: 'p/' }, secrets }), [`Missing ${type} config: bucket, region.`]);
    }
  });

  it('refuses an unknown type and a bad name', () => {
    const problems = validateStoreRequest({ name: '', type: 'FTP' as StoreType, configs: {}, secrets: {} });
    assert.equal(problems.length, 2);
    assert.match(problems[1], /Unknown store type "FTP"/);
    assert.match(checkStoreName('-bad') ?? '', /starting with a letter or digit/);
    assert.equal(checkStoreName('team bucket_1'), undefined);
  });

  it('parses labels as key=value pairs and explains bad ones', () => {
    assert.deepEqual(parseLabels(''), { ok: true, labels: {} });
    assert.deepEqual(parseLabels('env=prod, team = eo'), { ok: true, labels: { env: 'prod', team: 'eo' } });
    const bad = parseLabels('env');
    assert.ok(!bad.ok);
    assert.match(bad.reason, /not key=value/);
    const twice = parseLabels('a=1,a=2');
    assert.ok(!twice.ok);
  });

  it('redacts secret values from any text', () => {
    const secrets = { secret_access_key: 'wJalrXUtnFEMI/K7MDENG' };
    assert.equal(redactSecrets('bad key wJalrXUtnFEMI/K7MDENG given', secrets), 'bad key ••• given');
  });
});
