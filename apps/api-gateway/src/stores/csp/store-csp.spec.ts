import { inventoriedScript } from './inventoried-script.testing';
import { connectSources, dryRun, integrityAttributes, storeCsp, type InventoriedScript } from './store-csp';

const DAY = 24 * 3600 * 1000;
const NOW = new Date('2026-06-30T12:00:00.000Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const script = (over: Partial<InventoriedScript>): InventoriedScript => inventoriedScript({ first_seen_at: ago(90), last_seen_at: ago(1), ...over });
const inputs = { sdkOrigin: 'https://pss.example', loaderHash: 'sha256-LOADER', reportUrl: 'https://pss.example/sdk/v1/csp?key=pk_live_1', connections: [] };

describe('a store CSP built from its inventory', () => {
  const scripts = [
    script({ id: 'jq', src: 'https://cdn.example/jquery.min.js?v=3' }),
    script({ id: 'inline', src: 'inline:x', inline: true, authorized_hash: 'sha384-INLINE', current_hash: 'sha384-INLINE' }),
    script({ id: 'pixel', src: 'https://cdn.example/pixel.js', status: 'needs_review' }),
    script({ id: 'blocked', src: 'https://evil.example/s.js', status: 'blocked' }),
    script({ id: 'changed', src: 'https://cdn.example/changed.js', current_hash: 'sha384-NEW' }),
  ];

  it('allows the authorized files (path, no query), inline hashes, the SDK and its loader, and reports where the store takes them', () => {
    const csp = storeCsp({ ...inputs, mode: 'report-only', scripts });
    expect(csp.header).toBe('Content-Security-Policy-Report-Only');
    expect(csp.value).toBe(
      "script-src https://pss.example 'sha256-LOADER' https://cdn.example/jquery.min.js 'sha384-INLINE'; connect-src 'self' https://pss.example; object-src 'none'; base-uri 'self'; " +
        'report-uri https://pss.example/sdk/v1/csp?key=pk_live_1; report-to pss-csp',
    );
    expect(csp.reporting_endpoints).toEqual({ header: 'Reporting-Endpoints', value: 'pss-csp="https://pss.example/sdk/v1/csp?key=pk_live_1"' });
  });

  it('is the enforcing header in enforce mode, and lists authorized connections beside the SDK', () => {
    const csp = storeCsp({ ...inputs, mode: 'enforce', scripts: [], connections: ['https://api.psp.example'] });
    expect(csp.header).toBe('Content-Security-Policy');
    expect(csp.value).toContain("connect-src 'self' https://pss.example https://api.psp.example;");
  });

  it('takes connect-src from the destinations an authorized, unchanged script fetched, posted or opened a socket to', () => {
    const by = (...ids: string[]) => ids.map((id) => ({ script_id: id, src: `https://cdn.example/${id}.js` }));
    const connections = [
      { origin: 'https://api.psp.example', via: ['fetch' as const], initiators: by('pixel', 'jq') },
      { origin: 'wss://live.example', via: ['websocket' as const], initiators: by('jq') },
      { origin: 'https://exfil.example', via: ['fetch' as const], initiators: by('blocked') },
      { origin: 'https://changed.example', via: ['beacon' as const], initiators: by('changed') },
      { origin: 'https://pixel.example', via: ['image' as const], initiators: by('jq') },
      { origin: 'https://unnamed.example', via: ['xhr' as const], initiators: [] },
    ];
    expect(connectSources(connections, scripts)).toEqual(['https://api.psp.example', 'wss://live.example']);
  });

  it('says which scripts seen in the window it would have stopped, and why', () => {
    const old = script({ id: 'old', status: 'needs_review', last_seen_at: ago(40) });
    expect(dryRun([...scripts, old], new Date(NOW.getTime() - 30 * DAY))).toEqual([
      { script_id: 'pixel', src: 'https://cdn.example/pixel.js', reason: 'it is needs review, not authorized: its URL is not in script-src', sightings: 10, sessions: 4, last_seen_at: ago(1) },
      { script_id: 'blocked', src: 'https://evil.example/s.js', reason: 'it is blocked, not authorized: its URL is not in script-src', sightings: 10, sessions: 4, last_seen_at: ago(1) },
      { script_id: 'changed', src: 'https://cdn.example/changed.js', reason: 'its content changed since it was authorized: its URL is not in script-src', sightings: 10, sessions: 4, last_seen_at: ago(1) },
    ]);
  });

  it('gives integrity attributes for authorized external scripts unchanged for the period, and Integrity-Policy when every one has one', () => {
    const since = new Date(NOW.getTime() - 30 * DAY);
    const stable = script({ id: 'jq', src: 'https://cdn.example/jquery.min.js?v="3"', last_hash_change_at: ago(31) });
    const recent = script({ id: 'recent', src: 'https://cdn.example/new.js', last_hash_change_at: ago(2) });
    expect(integrityAttributes([stable, recent], since)).toEqual({
      scripts: [{ script_id: 'jq', src: stable.src, integrity: 'sha384-A', tag: '<script src="https://cdn.example/jquery.min.js?v=&quot;3&quot;" integrity="sha384-A" crossorigin="anonymous"></script>' }],
      integrity_policy: null,
    });
    expect(integrityAttributes([stable], since).integrity_policy).toEqual({ header: 'Integrity-Policy', value: 'blocked-destinations=(script), endpoints=(pss-csp)' });
    expect(integrityAttributes([script({ current_hash: 'sha256-X', authorized_hash: 'sha256-X' })], since).scripts).toEqual([]);
  });
});
