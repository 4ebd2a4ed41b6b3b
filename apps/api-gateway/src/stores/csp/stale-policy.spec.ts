import { policyDrift, type DeployedPolicy } from './stale-policy';
import { inventoriedScript as script } from './inventoried-script.testing';
import { storeCsp, type InventoriedScript } from './store-csp';

const PAGE = 'https://shop.example';
const policyOf = (scripts: InventoriedScript[]) =>
  storeCsp({ mode: 'enforce', scripts, sdkOrigin: 'https://pss.example', loaderHash: 'sha256-L', reportUrl: 'https://pss.example/sdk/v1/csp?key=k', connections: [] }).value;
const deployed = (value: string): DeployedPolicy => ({ page: '/checkout', header: 'Content-Security-Policy', value, observed_at: '2026-06-20T00:00:00.000Z' });

describe('a deployed CSP gone stale', () => {
  const widget = script({ id: 'widget', src: 'https://cdn.example/widget.js?v=1' });
  const inline = script({ id: 'inline', src: 'inline:1', inline: true, current_hash: 'sha384-I', authorized_hash: 'sha384-I' });
  const pixel = script({ id: 'pixel', src: 'https://pixel.example/p.js', status: 'needs_review', authorized_hash: null });

  it('is fresh while the inventory is as it was written, even with a script the policy cannot tell from an authorized one', () => {
    const sameFile = script({ id: 'blocked-variant', src: 'https://cdn.example/widget.js?v=evil', status: 'blocked', authorized_hash: null });
    const inventory = [widget, inline, pixel, sameFile];
    expect(policyDrift(deployed(policyOf(inventory)), policyOf(inventory), inventory, PAGE)).toEqual({
      page: '/checkout',
      header: 'Content-Security-Policy',
      observed_at: '2026-06-20T00:00:00.000Z',
      stale: false,
      blocks_authorized: [],
      allows_unauthorized: [],
    });
  });

  it('is stale when a script authorized since would be blocked', () => {
    const before = [widget, inline, pixel];
    const now = [widget, inline, { ...pixel, status: 'authorized', authorized_hash: 'sha384-A' }];
    const drift = policyDrift(deployed(policyOf(before)), policyOf(now), now, PAGE);
    expect(drift).toMatchObject({ stale: true, blocks_authorized: [{ script_id: 'pixel', src: pixel.src }], allows_unauthorized: [] });
  });

  it('is stale when a script blocked since, or whose inline content changed, would still run', () => {
    const before = [widget, inline, pixel];
    const now = [{ ...widget, status: 'blocked' }, inline, pixel];
    expect(policyDrift(deployed(policyOf(before)), policyOf(now), now, PAGE)).toMatchObject({
      stale: true,
      blocks_authorized: [],
      allows_unauthorized: [{ script_id: 'widget', src: widget.src, status: 'blocked' }],
    });
    // A hand-written policy that lets any inline script run lets the changed one run too.
    const changed = [widget, { ...inline, current_hash: 'sha384-CHANGED' }];
    expect(policyDrift(deployed("script-src https://cdn.example/widget.js 'unsafe-inline'"), policyOf(changed), changed, PAGE).allows_unauthorized).toEqual([
      { script_id: 'inline', src: 'inline:1', status: 'authorized' },
    ]);
  });
});
