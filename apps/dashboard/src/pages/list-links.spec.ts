import { listLinks } from './list-links';

describe("a filtered list's page links", () => {
  it('keep the filter in both links, drop blank choices, and offer the first page only once paged', () => {
    expect(listLinks('/dashboard/rules', { store_id: 's1', type: undefined, active: false }, true, 'c2')).toEqual({
      first: '/dashboard/rules?store_id=s1&active=false',
      next: '/dashboard/rules?store_id=s1&active=false&cursor=c2',
    });
    expect(listLinks('/dashboard/policies', { store_id: '' }, false, null)).toEqual({ first: null, next: null });
    expect(listLinks('/dashboard/policies', { store_id: '' }, true, null).first).toBe('/dashboard/policies');
  });
});
