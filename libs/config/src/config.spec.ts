import { loadConfig } from './config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ mode: 'embedded', port: 3000, rateLimitPerMinute: 1200, readYourWritesTimeoutMs: 5000 });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.opsSocket).toBe(`${config.dataDir}/ops.sock`);
  });

  it('reads RATE_LIMIT_PER_MINUTE', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '60' }).rateLimitPerMinute).toBe(60);
  });

  it.each(['0', '-5', '1.5', 'many', '1000000001'])('refuses RATE_LIMIT_PER_MINUTE=%s at start-up', (value) => {
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: value })).toThrow(/RATE_LIMIT_PER_MINUTE must be an integer from 1 to 1000000000/);
  });

  it('refuses an unknown MODE', () => {
    expect(() => loadConfig({ MODE: 'cluster' })).toThrow(/MODE must be one of embedded, distributed/);
  });

  describe('TRUST_PROXY', () => {
    it('trusts no proxy when unset: the peer is the client', () => {
      expect(loadConfig({}).trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: ' ' }).trustProxy).toBe(false);
    });

    it('reads a number of hops', () => {
      expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    });

    it('reads addresses, CIDR ranges and proxy-addr range names', () => {
      expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8 ,loopback, 172.16.0.0/255.240.0.0' }).trustProxy).toEqual([
        '10.0.0.0/8',
        '192.168.1.7',
        'fd00::/8',
        'loopback',
        '172.16.0.0/255.240.0.0',
      ]);
    });

    it.each(['true', '*', 'proxy.internal', '10.0.0.0/33', '::1/129', '10.0.0.1/8/8', '10.0.0.0/ffff::'])('refuses %s at start-up', (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be a number of hops or comma-separated addresses and CIDR ranges/);
    });
  });

  describe('DNS_SERVERS', () => {
    it('is empty by default: the system resolvers', () => {
      expect(loadConfig({}).dnsServers).toEqual([]);
    });

    it('takes addresses with optional ports', () => {
      expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, 1.1.1.1,2606:4700::1111,[::1]:53' }).dnsServers).toEqual(['127.0.0.1:5353', '1.1.1.1', '2606:4700::1111', '[::1]:53']);
    });

    it.each(['dns.internal', '10.0.0.1:0', '10.0.0.1:65536', '[10.0.0.1]:53', '::1:53:x', '1.1.1.1:'])('refuses %s at start-up', (value) => {
      expect(() => loadConfig({ DNS_SERVERS: value })).toThrow(/DNS_SERVERS must be comma-separated IP addresses, each with an optional :port/);
    });
  });
});
