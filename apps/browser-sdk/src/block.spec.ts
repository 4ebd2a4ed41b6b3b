import { DEFAULT_SDK_CONFIG } from '@pss/inventory/src/stores/sdk-config';
import { BlockRules } from './block';
import type { PageRule } from '@pss/contracts/sdk/page-rules';

/** The page the decisions are taken on: relative script URLs resolve against it. */
const PAGE = 'https://www.loja.example/checkout';

describe('block mode rules in the SDK', () => {
  const globals = globalThis as { location?: { href: string } };
  beforeAll(() => (globals.location = { href: PAGE }));
  afterAll(() => delete globals.location);

  const rule = (target: string, value: string): PageRule => ({ id: `${target}:${value}`, target, value });
  const blocking = (block: PageRule[], allow: PageRule[] = [], mode: 'block' | 'monitor' = 'block', authorized?: string[]) => {
    const rules = new BlockRules();
    rules.update({ paused: false, config: { ...DEFAULT_SDK_CONFIG, mode }, rules: { block, allow }, authorized_urls: authorized });
    return rules;
  };

  it('blocks a domain and its subdomains, a URL with or without its query, and a hash of the integrity list', () => {
    const rules = blocking([rule('domain', 'evil.example'), rule('url', 'https://cdn.example/kit.js'), rule('hash', 'sha384-AAA')]);
    expect(rules.blocksUrl('https://evil.example/a.js')).toBe(true);
    expect(rules.blocksUrl('https://x.EVIL.example/a.js')).toBe(true);
    expect(rules.blocksUrl('https://notevil.example/a.js')).toBe(false);
    expect(rules.blocksUrl('https://cdn.example/kit.js?v=3#top')).toBe(true);
    expect(rules.blocksUrl('https://cdn.example/other.js')).toBe(false);
    expect(rules.blocksUrl('/local.js')).toBe(false);
    expect(rules.blocksHash('sha256-BBB sha384-AAA')).toBe(true);
    expect(rules.blocksHash('sha384-CCC')).toBe(false);
  });

  it('lets the most specific rule win: a URL before a domain, a subdomain before its parent, a block on a tie', () => {
    const authorized = blocking([rule('domain', 'cdn.example')], [rule('url', 'https://cdn.example/ok.js')]);
    expect(authorized.blocksUrl('https://cdn.example/ok.js?visitor=1')).toBe(false);
    expect(authorized.blocksUrl('https://cdn.example/other.js')).toBe(true);

    const parentAllowed = blocking([rule('domain', 'ads.partner.example')], [rule('domain', 'partner.example')]);
    expect(parentAllowed.blocksUrl('https://ads.partner.example/x.js')).toBe(true);
    expect(parentAllowed.blocksUrl('https://www.partner.example/x.js')).toBe(false);

    const childAllowed = blocking([rule('domain', 'partner.example')], [rule('domain', 'pay.partner.example')]);
    expect(childAllowed.blocksUrl('https://pay.partner.example/x.js')).toBe(false);
    expect(childAllowed.blocksUrl('https://www.partner.example/x.js')).toBe(true);

    expect(blocking([rule('domain', 'both.example')], [rule('domain', 'both.example')]).blocksUrl('https://both.example/x.js')).toBe(true);
    expect(blocking([rule('url', 'https://both.example/x.js')], [rule('domain', 'both.example')]).blocksUrl('https://both.example/x.js')).toBe(true);
  });

  it("lets an authorized script run on its blocked host, with any query, and stops the host's other scripts", () => {
    const rules = blocking([rule('domain', 'cdn.shared.example')], [], 'block', ['https://cdn.shared.example/jquery.min.js']);
    expect(rules.blocksUrl('https://cdn.shared.example/jquery.min.js')).toBe(false);
    expect(rules.blocksUrl('https://CDN.shared.example/jquery.min.js?v=3#x')).toBe(false);
    expect(rules.blocksUrl('https://cdn.shared.example/pixel.js')).toBe(true);
    expect(rules.blocksUrl('https://a.cdn.shared.example/jquery.min.js')).toBe(true);
    // a config kept from before authorized URLs were served blocks the whole host, as it did
    expect(blocking([rule('domain', 'cdn.shared.example')]).blocksUrl('https://cdn.shared.example/jquery.min.js')).toBe(true);
  });

  it('blocks nothing in monitor mode', () => {
    const rules = blocking([rule('domain', 'evil.example'), rule('hash', 'sha384-AAA')], [], 'monitor');
    expect([rules.enforcing, rules.blocksUrl('https://evil.example/a.js'), rules.blocksHash('sha384-AAA')]).toEqual([false, false, false]);
  });
});
