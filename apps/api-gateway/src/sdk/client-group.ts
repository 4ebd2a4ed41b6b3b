/**
 * The address a public-key quota is counted per. IPv4: the address. IPv6: its /64, since one subscriber is
 * handed a whole /64 (RFC 6177) and could otherwise take a fresh share with every address in it. An IPv4
 * address mapped into IPv6 (`::ffff:203.0.113.7`, as a dual-stack socket reports it) is that IPv4 address.
 */
export function clientGroup(address: string): string {
  if (!address.includes(':')) return address;
  const hextets = ipv6Hextets(address.replace(/%.*$/, '').toLowerCase());
  if (!hextets) return address; // not an address the socket could give; counted as it is
  if (hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff) {
    return [hextets[6] >> 8, hextets[6] & 0xff, hextets[7] >> 8, hextets[7] & 0xff].join('.');
  }
  return `${hextets.slice(0, 4).map((hextet) => hextet.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Hextets(address: string): number[] | undefined {
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  let text = address;
  if (dotted) {
    const bytes = dotted.slice(1).map(Number);
    if (bytes.some((byte) => byte > 255)) return undefined;
    text = `${address.slice(0, dotted.index)}${((bytes[0] << 8) | bytes[1]).toString(16)}:${((bytes[2] << 8) | bytes[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((hextet) => (/^[0-9a-f]{1,4}$/.test(hextet) ? parseInt(hextet, 16) : NaN)));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const elided = 8 - head.length - tail.length;
  if (halves.length === 2 ? elided < 1 : elided !== 0) return undefined;
  const hextets = [...head, ...new Array<number>(halves.length === 2 ? elided : 0).fill(0), ...tail];
  return hextets.some(Number.isNaN) ? undefined : hextets;
}
