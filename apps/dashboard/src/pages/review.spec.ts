import type { ScriptDocument } from '@pss/contracts';
import { newSession } from '../access/session';
import type { DashboardRequest } from '../http/dashboard-route';
import { translator } from '../i18n/catalogue';
import { inventorySearchOf } from '../inventory/inventory-filter';
import { reviewGroups } from '../review/review-groups';
import { inventoryPage } from './inventory';
import { inboxPath, reviewPage, type ReviewView } from './review';

const now = new Date('2026-11-27T12:00:00.000Z');
const request: DashboardRequest = { locale: 'en', t: translator('en'), now, url: '/dashboard/review', params: {}, query: {}, form: {}, ip: '127.0.0.1', session: newSession(now) };
const stores = [{ _id: 's1', name: 'Loja', domain: 'loja.example', timezone: 'America/Sao_Paulo' }, { _id: 's2', name: 'Outra', domain: 'outra.example', timezone: 'UTC' }];
const script = (id: string, storeId: string) =>
  ({ _id: id, store_id: storeId, src: `https://js.psp.example/${id}.js`, host: 'js.psp.example', vendor_id: 'psp', status: 'needs_review', integrity_status: 'monitored', expires_at: null, first_seen_at: '2026-11-01T00:00:00.000Z', last_seen_at: '2026-11-02T00:00:00.000Z', sightings: 1, type: 'known_third', category: 'payment' }) as ScriptDocument;
const scripts = [script('a', 's1'), script('b', 's2')];

function inbox(view: Partial<ReviewView>): string {
  const groups = reviewGroups(scripts).map((group) => ({ ...group, justification: 'Payment provider <PSP>' }));
  return reviewPage(request, { storeId: '', stores, groups, decides: () => true, paged: false, nextCursor: null, ...view }).toString();
}

describe('the review inbox page', () => {
  it("offers a decision only on the scripts the person may decide on, and none to who may decide on none", () => {
    const storeOwner = inbox({ decides: (one) => one.store_id === 's1' });
    expect(storeOwner).toContain('name="script.a"');
    expect(storeOwner).not.toContain('name="script.b"');
    expect(storeOwner).toContain('Select the whole group (1 scripts)');
    expect(storeOwner).toContain('Payment provider &lt;PSP&gt;</textarea>');
    const viewer = inbox({ decides: () => false });
    expect(viewer).not.toContain('<form method="post"');
    expect(viewer).toContain('https://js.psp.example/b.js');
  });

  it("lists each script's refusal in the service's words, and links the pages of one store by cursor", () => {
    const page = inbox({ storeId: 's1', paged: true, nextCursor: 'c2', outcome: { done: 1, failures: [{ src: 'https://x.example/<a>.js', message: 'justification is required' }] } });
    expect(page).toContain('1 decided, 1 refused:');
    expect(page).toContain('<code>https://x.example/&lt;a&gt;.js</code>: justification is required');
    expect(page).toContain(`<a href="${inboxPath('s1')}">First page</a>`);
    expect(page).toContain('<a href="/dashboard/review?store=s1&amp;cursor=c2" rel="next">Next page</a>');
    expect(page).toContain('action="/dashboard/review?store=s1"');
    expect(inbox({})).not.toContain('Next page');
  });
});

describe('the inventory page', () => {
  it('keeps the filter on the next page and the CSV, and offers no CSV for a refused filter', () => {
    const view = { search: inventorySearchOf({ store_id: 's1', status: 'needs_review' }), stores, paymentPages: [], scripts, paged: false, nextCursor: 'c2', refused: [] };
    const page = inventoryPage(request, view).toString();
    expect(page).toContain('href="/dashboard/inventory.csv?store_id=s1&amp;status=needs_review" download');
    expect(page).toContain('href="/dashboard/inventory?store_id=s1&amp;status=needs_review&amp;cursor=c2" rel="next"');
    const refused = inventoryPage(request, { ...view, scripts: [], nextCursor: null, refused: [{ field: 'status', message: 'status must be one of the following values: …' }] }).toString();
    expect(refused).toContain('<p class="error" id="status-error">status must be one of the following values: …</p>');
    expect(refused).not.toContain('download');
  });
});
