import { createHash, randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

// Random bytes drawn in bulk: one randomBytes call per id costs ten times the rest of the id.
const POOL_SIZE = 16 * 512;
let pool = Buffer.alloc(0);
let poolOffset = POOL_SIZE;

function random16(): Buffer {
  if (poolOffset + 16 > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/**
 * UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then a 12-bit counter that keeps ids made in the same
 * millisecond in creation order, then random bits. Sortable ids give stable pagination without a second key.
 */
export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = random16().readUInt16BE(0) & 0x3ff; // start low so the counter rarely overflows
  } else {
    sequence += 1;
    if (sequence > 0xfff) {
      lastMs += 1; // borrow the next millisecond rather than lose ordering
      sequence = 0;
    }
  }
  const bytes = random16();
  const ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | ((sequence >>> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

/**
 * A UUID (version 8, RFC 9562) derived from a SHA-256 of the parts: the same parts always name the same
 * stream, which makes "create if missing" idempotent with a "no stream" append (a script seen twice, a
 * default policy seeded twice).
 */
export function deterministicUuid(...parts: string[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16);
  bytes[6] = 0x80 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
