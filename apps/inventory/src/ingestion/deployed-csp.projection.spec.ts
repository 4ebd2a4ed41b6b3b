import { DEPLOYED_CSP } from '@pss/contracts';
import { expectReplayedTwice, recorded } from '@pss/testkit';
import { DeployedCspProjection } from './deployed-csp.projection';
import type { PageHeadersEvent } from './page-headers.decider';

const baselined = (page: string, headers: Record<string, string>, at: string) => {
  const data: Extract<PageHeadersEvent, { type: 'SecurityHeadersBaselined' }>['data'] = { storeId: 's1', orgId: 'o1', page, headers, at };
  return recorded('headers-s1', 'SecurityHeadersBaselined', data);
};
const changed = (page: string, headers: Record<string, string>, at: string) => {
  const data: Extract<PageHeadersEvent, { type: 'SecurityHeadersChanged' }>['data'] = { storeId: 's1', orgId: 'o1', page, pageUrl: `https://shop.example${page}`, changes: [], headers, at };
  return recorded('headers-s1', 'SecurityHeadersChanged', data);
};

/** Every event handled twice in a row, then the whole log again: each page keeps the policies it last sent. */
describe('DeployedCspProjection replayed twice', () => {
  it('keeps the enforced and report-only policy of each page as last read, null once the page stops sending one', async () => {
    const events = [
      baselined('/checkout', { 'content-security-policy-report-only': "script-src 'self'", 'x-frame-options': 'DENY' }, '2026-06-01T10:00:00.000Z'),
      baselined('/pay', { 'x-frame-options': 'DENY' }, '2026-06-01T10:01:00.000Z'),
      changed('/checkout', { 'content-security-policy': "script-src https://cdn.example/a.js" }, '2026-06-02T10:00:00.000Z'),
    ];
    await expectReplayedTwice(DeployedCspProjection, events, DEPLOYED_CSP, [
      { _id: 's1:/checkout', org_id: 'o1', store_id: 's1', page: '/checkout', enforced: 'script-src https://cdn.example/a.js', report_only: null, observed_at: '2026-06-02T10:00:00.000Z' },
      { _id: 's1:/pay', store_id: 's1', page: '/pay', enforced: null, report_only: null, observed_at: '2026-06-01T10:01:00.000Z' },
    ]);
  });
});
