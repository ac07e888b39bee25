import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OrderItemRequest } from '../../../src/api/records';
import { checkPlanText, type ServiceFacts } from '../../../src/plans/checkPlan';
import { placementOf, requestFingerprint, requestOf, type OrderPlan } from '../../../src/plans/planFile';
import { ring, samplePlan } from './samplePlan';
import { planFromRequest, planText } from '../../../src/plans/planWrite';

const codes = (text: string, facts?: ServiceFacts): string[] => checkPlanText(text, facts).diagnostics.map((d) => d.code);
const edit = (mutate: (p: OrderPlan) => void): string => {
  const p = samplePlan();
  mutate(p);
  return planText(p);
};
/** The text the diagnostic underlines. */
const underlined = (text: string, code: string): string => {
  const d = checkPlanText(text).diagnostics.find((x) => x.code === code);
  assert.ok(d, `no ${code}`);
  return text.slice(d.offset, d.offset + d.length);
};

describe('order plan checks (offline)', () => {
  it('finds nothing wrong with a plan as the wizards write it', () => {
    assert.deepEqual(codes(planText(samplePlan())), []);
  });
  it('says what is missing or of the wrong type, where', () => {
    const text = edit((p) => delete (p.items[1] as { bandset?: unknown }).bandset);
    assert.deepEqual(codes(text), ['missing-field']);
    const wrong = planText(samplePlan()).replace('"occurrences": 1', '"occurrences": "1"');
    assert.deepEqual(codes(wrong), ['wrong-type']);
    assert.equal(underlined(wrong, 'wrong-type'), '"1"');
  });
  it('refuses an unknown kind and recurrence, and an empty plan', () => {
    assert.deepEqual(codes(planText(samplePlan()).replace('"kind": "tasking"', '"kind": "buy"')), ['unknown-value']);
    assert.deepEqual(codes(planText(samplePlan()).replace('"ONCE"', '"DAILY"')), ['unknown-value', 'order-rule']);
    assert.deepEqual(codes(edit((p) => (p.items = []))), ['no-items']);
    assert.deepEqual(codes('[1]'), ['not-a-plan']);
  });
  it('applies the order rules at the field: dates, ranges, occurrences, delivery path', () => {
    const late = planText(samplePlan()).replace('"end": "2025-06-15"', '"end": "2025-05-15"');
    assert.deepEqual(codes(late), ['order-rule']);
    assert.equal(underlined(late, 'order-rule'), '"2025-05-15"');
    const notADay = planText(samplePlan()).replace('"start": "2025-06-01"', '"start": "2025-02-30"');
    assert.equal(underlined(notADay, 'order-rule'), '"2025-02-30"');
    assert.equal(underlined(planText(samplePlan()).replace('"cloudCover": 20', '"cloudCover": 120'), 'order-rule'), '120');
    assert.equal(underlined(planText(samplePlan()).replace('"offNadir": 30', '"offNadir": 75'), 'order-rule'), '75');
    assert.equal(underlined(planText(samplePlan()).replace('"occurrences": 1', '"occurrences": 3'), 'order-rule'), '3');
    assert.equal(
      underlined(
        edit((p) => (p.delivery!.path = '../x')),
        'order-rule',
      ),
      '"../x"',
    );
  });
  it('refuses a polygon that is not valid', () => {
    const bowtie = edit((p) => {
      p.items[1].geometry = {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [1, 0],
            [0, 1],
            [0, 0],
          ],
        ],
      };
    });
    const d = checkPlanText(bowtie).diagnostics;
    assert.deepEqual(
      d.map((x) => x.code),
      ['order-rule'],
    );
    assert.match(d[0].message, /intersects itself/);
  });
  it('refuses an archive scene that does not lie over its AOI', () => {
    const far = edit((p) => {
      const item = p.items[0];
      if (item.kind === 'archive') item.scenes[1].bbox = [30, 30, 31, 31];
    });
    assert.deepEqual(codes(far), ['scene-outside-area']);
    assert.match(underlined(far, 'scene-outside-area'), /S2A_2/);
    const d = checkPlanText(far).diagnostics[0];
    assert.match(d.message, /North field/);
  });
  it('says when the plan was placed, and when it changed after', () => {
    const p = samplePlan();
    p.placed = { order_id: 'ord-9', at: '2025-05-02T10:00:00.000Z', amount: 12, request: requestFingerprint(requestOf(p)) };
    assert.deepEqual(codes(planText(p)), ['placed']);
    assert.equal(placementOf(p).state, 'placed');
    // The names beside ids are not what was bought: an AOI renamed keeps the record true.
    p.items[0].aoi!.name = 'Renamed';
    assert.equal(placementOf(p).state, 'placed');
    if (p.items[1].kind === 'tasking') p.items[1].end = '2025-06-20';
    assert.deepEqual(codes(planText(p)), ['changed-after-placed']);
    assert.match(checkPlanText(planText(p)).diagnostics[0].message, /ord-9 on 2025-05-02/);
  });
});

describe('order plan checks (against the service)', () => {
  const facts: ServiceFacts = {
    projects: new Map([['prj-1', 'Vineyards']]),
    aois: new Map([['aoi-1', 'North field']]),
    stores: new Map([['st-1', 'Team bucket']]),
    bandsets: new Map([['bs-1', 'RGB + NIR']]),
    scenes: new Set(['S2A_1', 'S2A_2']),
  };
  it('finds nothing wrong when the service knows every id by the same name', () => {
    assert.deepEqual(codes(planText(samplePlan()), facts), []);
  });
  it('reports ids the service does not know', () => {
    assert.deepEqual(codes(planText(samplePlan()), { ...facts, projects: new Map() }), ['unknown-project']);
    assert.deepEqual(codes(planText(samplePlan()), { ...facts, stores: new Map() }), ['unknown-store']);
    assert.deepEqual(codes(planText(samplePlan()), { ...facts, aois: new Map() }), ['unknown-aoi', 'unknown-aoi']);
    assert.deepEqual(codes(planText(samplePlan()), { ...facts, bandsets: new Map() }), ['unknown-bandset']);
    assert.deepEqual(codes(planText(samplePlan()), { ...facts, scenes: new Set(['S2A_1']) }), ['scene-not-in-archive']);
  });
  it('offers the service name for an AOI renamed there', () => {
    const text = planText(samplePlan());
    const d = checkPlanText(text, { ...facts, aois: new Map([['aoi-1', 'North field (2025)']]) }).diagnostics;
    assert.deepEqual(
      d.map((x) => x.code),
      ['name-differs', 'name-differs'],
    );
    const fix = d[0].fix!;
    const e = fix.edits[0];
    const fixed = text.slice(0, e.offset) + e.content + text.slice(e.offset + e.length);
    assert.match(fixed, /"aoi": \{ "id": "aoi-1", "name": "North field \(2025\)" \}/);
  });
});

describe('order plan files', () => {
  it('write a reference, a scene and a position per line, so a diff reads line by line', () => {
    const text = planText(samplePlan());
    assert.match(text, /\n {2}"project": \{ "id": "prj-1", "name": "Vineyards" \},\n/);
    assert.match(text, /\n {8}\{ "collection": "sentinel-2-l2a", "id": "S2A_2", "acquired": "2025-03-06", "bbox": \[10\.1, 10\.1, 10\.8, 10\.8\] \}\n/);
    assert.match(text, /\n {12}\[10\.2, 10\],\n/);
  });
  it('make the request the wizard sends, and read back to it', () => {
    const req: OrderItemRequest = {
      project_id: 'prj-1',
      name: 'Summer capture',
      usecase: 'agriculture',
      geometry: {
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { aoi_id: 'aoi-1' } }],
      },
      recurrence: 'ONCE',
      start_date: '2025-06-01T00:00:00.000Z',
      end_date: '2025-06-15T00:00:00.000Z',
      no_of_occurrences: 1,
      bandset: { bandset_id: 'bs-1' },
      cloud_cover: 20,
      off_nadir: 30,
      delivery_speed: 'STANDARD',
      cloud_delivery: { config: 'st-1', path: 'deliveries/2025' },
    };
    const plan = planFromRequest([req], { project: 'Vineyards', aoi: 'North field', bandset: 'RGB + NIR', store: 'Team bucket' });
    const text = planText(plan);
    assert.match(text, /"start": "2025-06-01"/);
    const back = checkPlanText(text);
    assert.deepEqual(back.diagnostics, []);
    assert.deepEqual(JSON.parse(JSON.stringify(requestOf(back.plan!))), [req]);
  });
});
