import { BlockList, isIP } from 'node:net';

/** Why an address may not be reached from the service. */
export type BlockReason = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'reserved';

/**
 * Every range a webhook must not reach, by reason (IANA special-purpose registries), checked in this order so
 * `::1` reads as loopback before `::/96` reads as reserved. 0.0.0.0 reaches the local host on Linux.
 */
const RANGES: Array<[BlockReason, string, number]> = [
  ['unspecified', '0.0.0.0', 8],
  ['unspecified', '::', 128],
  ['loopback', '127.0.0.0', 8],
  ['loopback', '::1', 128],
  ['private', '10.0.0.0', 8],
  ['private', '100.64.0.0', 10],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['private', 'fc00::', 7],
  ['link-local', '169.254.0.0', 16],
  ['link-local', 'fe80::', 10],
  ['multicast', '224.0.0.0', 4],
  ['multicast', 'ff00::', 8],
  ['reserved', '192.0.0.0', 24],
  ['reserved', '192.0.2.0', 24],
  ['reserved', '192.88.99.0', 24],
  ['reserved', '198.18.0.0', 15],
  ['reserved', '198.51.100.0', 24],
  ['reserved', '203.0.113.0', 24],
  ['reserved', '240.0.0.0', 4],
  ['reserved', '::', 96],
  ['reserved', '64:ff9b:1::', 48],
  ['reserved', '100::', 64],
  ['reserved', '2001::', 23],
  ['reserved', '2001:db8::', 32],
  ['reserved', '2002::', 16],
  ['reserved', 'fec0::', 10],
];

const LISTS: Array<[BlockReason, BlockList]> = [];
for (const [reason, network, prefix] of RANGES) {
  let entry = LISTS.find(([known]) => known === reason);
  if (!entry) LISTS.push((entry = [reason, new BlockList()]));
  entry[1].addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why the service must not connect to `address` (an IP address in any form Node accepts), or undefined when it
 * may. An IPv6 address carrying an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`) is judged by
 * the IPv4 address it reaches.
 */
export function blockedReason(address: string): BlockReason | undefined {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const carried = family === 6 ? carriedIpv4(address) : undefined;
  if (carried) return blockedReason(carried);
  return LISTS.find(([, list]) => list.check(address, family === 4 ? 'ipv4' : 'ipv6'))?.[0];
}

/** The IPv4 address an IPv4-mapped or NAT64 IPv6 address stands for. */
function carriedIpv4(address: string): string | undefined {
  const h = hextets(address);
  const mapped = h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff;
  const nat64 = h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0);
  return mapped || nat64 ? [h[6] >> 8, h[6] & 0xff, h[7] >> 8, h[7] & 0xff].join('.') : undefined;
}

/** The eight 16-bit groups of an IPv6 address; the URL parser gives its canonical form (no dotted tail). */
function hextets(address: string): number[] {
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const first = groups(head);
  const last = groups(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** A refusal, raised before any connection is made. */
export class BlockedAddressError extends Error {
  constructor(host: string, address: string, reason: BlockReason) {
    super(host === address ? `blocked address ${address} (${reason})` : `${host} resolves to blocked address ${address} (${reason})`);
    this.name = 'BlockedAddressError';
  }
}
