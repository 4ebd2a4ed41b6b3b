import { Resolver } from 'node:dns/promises';
import { startDnsTxtServer, type DnsTxtServer } from './dns-txt-server';

describe('a loopback DNS TXT server', () => {
  let server: DnsTxtServer;
  let resolver: Resolver;

  beforeEach(async () => {
    server = await startDnsTxtServer();
    resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([server.address]);
  });
  afterEach(() => server.close());

  it('answers NXDOMAIN for a name it has no record for', async () => {
    await expect(resolver.resolveTxt('_pss-challenge.shop.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it("answers a published name's TXT strings, in any letter case, and stops once withdrawn", async () => {
    server.setTxt('_pss-challenge.shop.example.com', ['pss-verify=abc', 'v=spf1 -all']);
    await expect(resolver.resolveTxt('_PSS-challenge.Shop.Example.com')).resolves.toEqual([['pss-verify=abc'], ['v=spf1 -all']]);
    server.setTxt('_pss-challenge.shop.example.com', []);
    await expect(resolver.resolveTxt('_pss-challenge.shop.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('splits a value longer than 255 bytes into character-strings, which the resolver joins back per record', async () => {
    const long = 'x'.repeat(300);
    server.setTxt('long.example.com', [long]);
    const [record] = await resolver.resolveTxt('long.example.com');
    expect(record.join('')).toBe(long);
  });
});
