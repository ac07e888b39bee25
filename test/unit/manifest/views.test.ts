// The side bar as package.json draws it: signed out, one view (the welcome) with one set of
// choices; signed in, the five views and no welcome. A view's `when` is read for the
// extension's own signed-in context key, the one src/auth/connection.ts sets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

interface Manifest {
  contributes: {
    views: Record<string, { id: string; when?: string }[]>;
    viewsWelcome: { view: string; contents: string; when?: string }[];
  };
}

const root = join(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const KEY = 'eoImagery.signedIn';

/** Whether a `when` made only of `&&`-joined terms can hold with the key at `signedIn` (other keys may be anything). */
function canShow(when: string | undefined, signedIn: boolean): boolean {
  if (!when) return true;
  return when
    .split('&&')
    .map((t) => t.trim())
    .every((t) => (t === KEY ? signedIn : t === `!${KEY}` ? !signedIn : true));
}

const views = manifest.contributes.views.eoImagery;
const text = (contents: string): string => nls[contents.replace(/^%|%$/g, '')] ?? contents;
const buttons = (contents: string): string[] => [...text(contents).matchAll(/^\[([^\]]+)\]\(command:/gm)].map((m) => m[1]);

describe('the EO Imagery side bar, signed out and signed in', () => {
  it('signed out shows one view, and one welcome with Sign In, Try the Sandbox and Get Started', () => {
    const shown = views.filter((v) => canShow(v.when, false)).map((v) => v.id);
    assert.deepEqual(shown, ['eoImagery.welcome']);
    const welcomes = manifest.contributes.viewsWelcome.filter((w) => canShow(w.when, false));
    assert.equal(welcomes.length, 1, `signed-out welcomes: ${welcomes.map((w) => w.view).join(', ')}`);
    assert.equal(welcomes[0].view, 'eoImagery.welcome');
    assert.deepEqual(buttons(welcomes[0].contents), ['Sign In', 'Try the Sandbox', 'Get Started']);
  });

  it('signed in shows the five views, each welcome only for its own empty state', () => {
    const shown = views.filter((v) => canShow(v.when, true)).map((v) => v.id);
    assert.deepEqual(shown, ['eoImagery.projects', 'eoImagery.orders', 'eoImagery.catalog', 'eoImagery.stores', 'eoImagery.archive']);
    for (const w of manifest.contributes.viewsWelcome.filter((x) => canShow(x.when, true))) {
      assert.notEqual(w.view, 'eoImagery.welcome');
      assert.match(w.when ?? '', /\.empty\b/, `${w.view}: a signed-in welcome that is not an empty state`);
    }
  });
});
