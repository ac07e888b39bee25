import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insightSlug } from '../../../src/commands/insights/insightSlug';
import { checkInsightName } from '../../../src/insights/build';

describe('insight file names', () => {
  it('joins words with single dashes and drops punctuation', () => {
    assert.equal(insightSlug('water-extent-Taveuni, Fiji (antimeridian)'), 'water-extent-taveuni-fiji-antimeridian');
    assert.equal(insightSlug('ndvi-North field / 2025'), 'ndvi-north-field-2025');
    assert.equal(insightSlug('  --a  b--  '), 'a-b');
  });

  it('keeps letters of any script and dots inside a version', () => {
    assert.equal(insightSlug('Pléiades Neo v1.2'), 'pléiades-neo-v1.2');
    assert.equal(insightSlug('東京 湾'), '東京-湾');
  });

  it('never gives an empty, hidden or refused name', () => {
    assert.equal(insightSlug('(),;'), 'insight');
    assert.equal(insightSlug('.hidden'), 'hidden');
    assert.equal(insightSlug('x'.repeat(200)).length, 80);
    for (const s of ['a/b:c*d?e"f<g>h|i', '..', 'x (y)', '\t\n']) assert.equal(checkInsightName(insightSlug(s)), undefined, s);
  });
});
