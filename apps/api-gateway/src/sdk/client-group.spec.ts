import { clientGroup } from './client-group';

describe('clientGroup', () => {
  it('counts an IPv4 address as itself', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('203.0.113.8')).not.toBe(clientGroup('203.0.113.7'));
  });

  it('counts every IPv6 address of one /64 together, however it is written', () => {
    const group = clientGroup('2001:db8:85a3:42::1');
    expect(group).toBe('2001:db8:85a3:42::/64');
    for (const address of ['2001:db8:85a3:42:ffff:ffff:ffff:ffff', '2001:0DB8:85A3:0042:0:0:0:9', '2001:db8:85a3:42:1::', '2001:db8:85a3:42::1%eth0']) {
      expect(clientGroup(address)).toBe(group);
    }
  });

  it('keeps neighbouring /64s apart', () => {
    expect(clientGroup('2001:db8:85a3:43::1')).not.toBe(clientGroup('2001:db8:85a3:42::1'));
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('reads an IPv4 address mapped into IPv6 as that IPv4 address', () => {
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('leaves what is not an address as it is', () => {
    expect(clientGroup('1:2:3')).toBe('1:2:3');
    expect(clientGroup('1::2::3')).toBe('1::2::3');
  });
});
