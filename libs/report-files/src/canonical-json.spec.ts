import { largeReportData, reportDataFixture } from './testing/report-data.fixture';
import { canonicalJson } from '@pss/kernel';
import { canonicalJsonInSlices, parseJsonInSlices, sha256Hex } from './canonical-json';

describe('canonical JSON of report data', () => {
  it('is the same text built in slices, so the sha256 an assessor computes matches', async () => {
    const data = largeReportData({ scripts: 1200, alerts: 1500 });
    const sliced = await canonicalJsonInSlices({ ...data });
    expect(sliced).toBe(canonicalJson(data));
    expect(sha256Hex(sliced)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('parses back in slices to what JSON.parse gives, quotes, brackets and escapes in strings included', async () => {
    const tricky = reportDataFixture();
    tricky.scripts[0] = { ...tricky.scripts[0], justification: 'a "quoted", [bracketed] {braced} \\\\ back\\slash,\nnew line' };
    for (const data of [tricky, largeReportData({ scripts: 3000, alerts: 4000 }), { ...tricky, scripts: [], headers: [] }]) {
      const text = canonicalJson(data);
      expect(await parseJsonInSlices(text)).toEqual(JSON.parse(text));
    }
    const padded = canonicalJson({ ...largeReportData({ scripts: 3000, alerts: 10 }), scope: { ...tricky.scope, payment_pages: ['/a', '/b,c', '/d]'] } });
    expect(await parseJsonInSlices(padded)).toEqual(JSON.parse(padded));
  });
});
