import { translator } from '../i18n/catalogue';
import type { DashboardRequest } from '../http/dashboard-route';
import { newSession } from '../access/session';
import type { MemberDocument } from '../access/members.read-model';
import { layout } from '../pages/layout';
import { html } from '../html/html';
import { currentness } from './current-page';

const now = new Date('2026-11-27T12:00:00.000Z');

describe('the current page in the navigation', () => {
  it('is the link of the page shown, or of the section a page lies under; the home only as itself', () => {
    expect(currentness('/dashboard/channels?lang=en', '/dashboard/channels', '/dashboard')).toBe('page');
    expect(currentness('/dashboard/channels/c1/deliveries', '/dashboard/channels', '/dashboard')).toBe('true');
    expect(currentness('/dashboard/channels-old', '/dashboard/channels', '/dashboard')).toBeNull();
    expect(currentness('/dashboard/', '/dashboard', '/dashboard')).toBe('page');
    expect(currentness('/dashboard?cursor=abc#stores', '/dashboard', '/dashboard')).toBe('page');
    expect(currentness('/dashboard/review', '/dashboard', '/dashboard')).toBeNull();
  });

  it('marks exactly one link of the rendered navigation, keeping the links in their order', () => {
    const member: MemberDocument = { _id: 'm1', org_id: 'o1', email: 'me@shop.example', role: { kind: 'viewer' }, passkeys: {}, passkey_ids: [], recovery_code_hashes: [] };
    const request: DashboardRequest = {
      locale: 'en',
      t: translator('en'),
      now,
      url: '/dashboard/channels/c1/deliveries',
      params: {},
      query: {},
      form: {},
      ip: '127.0.0.1',
      session: newSession(now),
      signedIn: { member, organization: { id: 'o1', name: 'Shop' } },
    };
    const page = layout(request, 'Deliveries', html`<p>…</p>`).text;
    const nav = /<nav class="main-nav"[\s\S]*?<\/nav>/.exec(page)![0];
    expect(nav.match(/aria-current="[^"]+"/g)).toEqual(['aria-current="true"']);
    expect(nav).toContain('<a href="/dashboard/channels" aria-current="true">E-mail channels</a>');
    const hrefs = [...nav.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]);
    expect(hrefs.slice(0, 3)).toEqual(['/dashboard', '/dashboard/passkeys', '/dashboard/members']);
    // A viewer is not offered the organization owner's pages.
    expect(hrefs).not.toContain('/dashboard/audit-log');
  });
});
