import { inventoryQueryString, inventorySearchOf, scriptFilterOf } from './inventory-filter';

describe("the inventory page's filter", () => {
  it("takes GET /scripts's params, blank ones filtering nothing, a payment page only with its store", () => {
    const search = inventorySearchOf({ status: 'needs_review', category: ' ', type: '', payment_page_id: 'pp1', other: 'x' });
    expect(scriptFilterOf(search)).toEqual({ status: 'needs_review' });
    expect(scriptFilterOf(inventorySearchOf({ store_id: 's1', payment_page_id: 'pp1' }))).toEqual({ store_id: 's1', payment_page_id: 'pp1' });
  });

  it('writes the links of the page, its next page and its CSV with the filled fields only', () => {
    const search = inventorySearchOf({ store_id: 's1', integrity_status: 'mismatch', category: 'a&b' });
    expect(inventoryQueryString(search)).toBe('?store_id=s1&integrity_status=mismatch&category=a%26b');
    expect(inventoryQueryString(inventorySearchOf({}), 'abc')).toBe('?cursor=abc');
    expect(inventoryQueryString(inventorySearchOf({}))).toBe('');
  });
});
