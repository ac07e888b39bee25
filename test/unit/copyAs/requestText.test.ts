import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { pyLiteral, shellQuote, toCurl, toPython, type ReproducibleRequest } from '../../../src/commands/copyAs/requestText';

const post: ReproducibleRequest = {
  method: 'POST',
  url: "https://eo.example.test/v0/catalogs/search?q=it's",
  authScheme: 'bearer',
  headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'eo-imagery-vscode/0.1.0', authorization: '[redacted]' },
  body: { name: "O'Brien's AOI", tags: ['a', 'b'], ok: true, none: null, n: 1.5, nested: { empty: {} } },
};

test('a quoted argument comes back unchanged through the shell, whatever it holds', () => {
  for (const s of ["it's", '$EO_API_TOKEN', '`id`', '"\\n"', 'a\nb', '']) {
    assert.equal(execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(s)}`]).toString(), s);
  }
});

test('curl: method, URL, token variable in double quotes, headers, body; no user-agent or redacted auth', () => {
  const text = toCurl(post);
  assert.ok(text.startsWith(`curl -sS -X POST 'https://eo.example.test/v0/catalogs/search?q=it'\\''s'`), text);
  assert.ok(text.includes('-H "Authorization: Bearer $EO_API_TOKEN"'));
  assert.ok(text.includes("-H 'Accept: application/json'"));
  assert.ok(!/user-agent/i.test(text) && !text.includes('[redacted]'), text);
  // The shell hands curl the body byte for byte.
  const dataArg = text.split('--data-raw ')[1];
  assert.equal(execFileSync('/bin/sh', ['-c', `printf %s ${dataArg}`]).toString(), JSON.stringify(post.body));
  assert.ok(!toCurl({ ...post, method: 'GET', body: undefined }).includes('-X'), 'GET needs no -X');
  assert.ok(toCurl({ ...post, authScheme: 'raw' }).includes('-H "Authorization: $EO_API_TOKEN"'));
  assert.ok(!toCurl({ ...post, auth: false }).includes('Authorization'));
});

test('Python: reads the token from the environment, sends the body as json=, and is valid Python', () => {
  const text = toPython(post);
  assert.ok(text.includes('"Authorization": "Bearer " + os.environ["EO_API_TOKEN"],'), text);
  assert.ok(!text.includes('Content-Type'), 'requests sets Content-Type for json=');
  assert.ok(text.includes('json={'), text);
  // Python parses it, and the literal evaluates to the JSON body.
  const literal = pyLiteral(post.body);
  const out = execFileSync(
    '/usr/bin/python3',
    ['-c', `import ast, json, sys; compile(sys.stdin.read(), "snippet", "exec"); print(json.dumps(ast.literal_eval(${JSON.stringify(literal)})))`],
    { input: text },
  ).toString();
  assert.deepEqual(JSON.parse(out), post.body);
});
