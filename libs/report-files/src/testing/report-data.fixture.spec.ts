import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { largeReportData, reportDataFixture } from './report-data.fixture';

/** The fixtures stand for real reports in the renderers' tests: they must stay what the contract describes. */
describe('report data fixtures', () => {
  const schema = JSON.parse(readFileSync(join(__dirname, '../../../../docs/report-data.schema.json'), 'utf8'));
  const validate = addFormats(new Ajv({ allErrors: true, strict: true })).compile(schema);

  it.each([
    ['the small report', reportDataFixture()],
    ['a large report', largeReportData({ scripts: 50, alerts: 80 })],
  ])('%s is valid against docs/report-data.schema.json', (_name, data) => {
    expect(validate(data) ? [] : validate.errors).toEqual([]);
  });

  it('makes the large report the size asked for, with weeks without monitoring among a year of checks', () => {
    const data = largeReportData({ scripts: 120, alerts: 300 });
    expect([data.scripts.length, data.alerts.length, data.summary_643.total, data.summary_1161.alerts_total]).toEqual([120, 300, 120, 300]);
    expect(data.periodic_checks).toHaveLength(53);
    expect(data.periodic_checks.some((week) => week.no_monitoring)).toBe(true);
    expect(new Set(data.scripts.map((script) => script.id)).size).toBe(120);
  });
});
