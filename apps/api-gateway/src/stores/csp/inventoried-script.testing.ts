import type { InventoriedScript } from './store-csp';

/** An authorized external script, unchanged since it was authorized, as the CSP specs start from. */
export const inventoriedScript = (over: Partial<InventoriedScript>): InventoriedScript => ({
  id: 'sc',
  src: 'https://cdn.example/a.js',
  inline: false,
  status: 'authorized',
  current_hash: 'sha384-A',
  authorized_hash: 'sha384-A',
  first_seen_at: '2026-06-01T00:00:00.000Z',
  last_seen_at: '2026-06-20T00:00:00.000Z',
  last_hash_change_at: null,
  sightings: 10,
  sessions_count: 4,
  ...over,
});
