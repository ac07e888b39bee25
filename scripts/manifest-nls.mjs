// The manifest's user-facing strings live in package.nls.json (VS Code's manifest
// localisation): package.json names them `%key%`. This module lists those strings; run as a
// script it moves any literal still in package.json into package.nls.json under a key named
// for where it sits (after a merge brings new commands, for instance):
//
//   node scripts/manifest-nls.mjs          # rewrite package.json + package.nls.json
//   node scripts/manifest-nls.mjs --check  # exit 1 listing literals and unknown keys
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const short = (id) => id.replace(/^eoImagery\./, '');

/**
 * Every user-facing string slot of the manifest: `{ key, holder, field }` where
 * `holder[field]` is the string (a literal or `%key%`), `key` the package.nls.json key.
 */
export function manifestStrings(m) {
  const out = [];
  const add = (key, holder, field) => {
    if (holder && typeof holder[field] === 'string') out.push({ key, holder, field });
  };
  add('displayName', m, 'displayName');
  add('description', m, 'description');
  const c = m.contributes ?? {};
  for (const a of c.authentication ?? []) add(`authentication.${short(a.id)}.label`, a, 'label');
  for (const [, list] of Object.entries(c.viewsContainers ?? {})) for (const v of list) add(`viewsContainer.${short(v.id)}.title`, v, 'title');
  for (const [, list] of Object.entries(c.views ?? {})) {
    for (const v of list) {
      add(`view.${short(v.id)}.name`, v, 'name');
      add('category', v, 'contextualTitle');
    }
  }
  const welcomeCount = {};
  for (const w of c.viewsWelcome ?? []) {
    const view = short(w.view);
    welcomeCount[view] = (welcomeCount[view] ?? 0) + 1;
    add(`viewsWelcome.${view}.${welcomeCount[view]}`, w, 'contents');
  }
  for (const cmd of c.commands ?? []) {
    add(`command.${short(cmd.command)}.title`, cmd, 'title');
    add(`command.${short(cmd.command)}.shortTitle`, cmd, 'shortTitle');
    add('category', cmd, 'category');
  }
  const configs = Array.isArray(c.configuration) ? c.configuration : c.configuration ? [c.configuration] : [];
  for (const cfg of configs) {
    add('category', cfg, 'title');
    for (const [name, p] of Object.entries(cfg.properties ?? {})) {
      const k = `config.${short(name)}`;
      for (const f of ['description', 'markdownDescription', 'patternErrorMessage', 'deprecationMessage', 'markdownDeprecationMessage']) add(`${k}.${f}`, p, f);
      for (const f of ['enumDescriptions', 'markdownEnumDescriptions']) {
        (p[f] ?? []).forEach((_, i) => add(`${k}.${f}.${i}`, p[f], i));
      }
    }
  }
  for (const t of c.languageModelTools ?? []) {
    const k = `tool.${t.name.replace(/^eoImagery_/, '')}`;
    for (const f of ['displayName', 'userDescription', 'modelDescription']) add(`${k}.${f}`, t, f);
    for (const [name, prop] of Object.entries(t.inputSchema?.properties ?? {})) add(`${k}.input.${name}`, prop, 'description');
  }
  for (const t of c.taskDefinitions ?? []) {
    const k = `taskDefinition.${short(t.type)}`;
    for (const [name, prop] of Object.entries(t.properties ?? {})) add(`${k}.${name}`, prop, 'description');
  }
  for (const p of c.chatParticipants ?? []) {
    add(`chatParticipant.${p.name}.description`, p, 'description');
    for (const cmd of p.commands ?? []) add(`chatParticipant.${p.name}.command.${cmd.name}.description`, cmd, 'description');
  }
  for (const w of c.walkthroughs ?? []) {
    const k = `walkthrough.${short(w.id)}`;
    add(`${k}.title`, w, 'title');
    add(`${k}.description`, w, 'description');
    for (const s of w.steps ?? []) {
      add(`${k}.step.${s.id}.title`, s, 'title');
      add(`${k}.step.${s.id}.description`, s, 'description');
      add(`${k}.step.${s.id}.altText`, s.media, 'altText');
    }
  }
  return out;
}

const PLACEHOLDER = /^%([^%]+)%$/;

/** Literals left in the manifest and `%keys%` package.nls.json does not define. */
export function checkManifest(manifest, nls) {
  const problems = [];
  const used = new Set();
  for (const { key, holder, field } of manifestStrings(manifest)) {
    const m = PLACEHOLDER.exec(holder[field]);
    if (!m) problems.push(`package.json: "${holder[field].slice(0, 60)}" is not localisable (use "%${key}%")`);
    else if (!(m[1] in nls)) problems.push(`package.json: %${m[1]}% is not in package.nls.json`);
    else used.add(m[1]);
  }
  for (const k of Object.keys(nls)) if (!used.has(k)) problems.push(`package.nls.json: "${k}" is used nowhere`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pkgFile = join(ROOT, 'package.json');
  const nlsFile = join(ROOT, 'package.nls.json');
  const manifest = JSON.parse(readFileSync(pkgFile, 'utf8'));
  let nls = {};
  try {
    nls = JSON.parse(readFileSync(nlsFile, 'utf8'));
  } catch {
    // first run: no package.nls.json yet
  }
  if (process.argv.includes('--check')) {
    const problems = checkManifest(manifest, nls);
    for (const p of problems) console.error(p);
    process.exit(problems.length ? 1 : 0);
  }
  let moved = 0;
  for (const { key, holder, field } of manifestStrings(manifest)) {
    const value = holder[field];
    if (PLACEHOLDER.test(value)) continue;
    // A literal in package.json is the newer text (someone just wrote or changed it).
    if (key in nls && nls[key] !== value) console.log(`updated ${key}`);
    nls[key] = value;
    holder[field] = `%${key}%`;
    moved++;
  }
  writeFileSync(pkgFile, `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(nlsFile, `${JSON.stringify(nls, null, 2)}\n`);
  console.log(`moved ${moved} string(s) to package.nls.json`);
}
