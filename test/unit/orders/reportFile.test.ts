import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportFileName } from '../../../src/commands/reports/reportFile';

describe('order report file name', () => {
  it('carries the date and time in the report’s zone, and the zone', () => {
    const at = new Date('2026-11-22T23:45:00Z');
    assert.equal(reportFileName(at, 'UTC'), 'order-report-2026-11-22-2345-UTC.csv');
    assert.equal(reportFileName(at, 'Asia/Kolkata'), 'order-report-2026-11-23-0515-Asia-Kolkata.csv');
    assert.equal(reportFileName(at, 'America/Argentina/Buenos_Aires'), 'order-report-2026-11-22-2045-America-Argentina-Buenos-Aires.csv');
    // a zone this runtime does not know: UTC time, the zone still named, nothing unsafe in the name
    assert.equal(reportFileName(at, 'Mars/../Olympus'), 'order-report-2026-11-22-2345-Mars-Olympus.csv');
  });
});
