import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { ServiceConfig } from '@pss/config';
import { startDnsTxtServer } from '@pss/testkit';
import { DomainTxtLookup } from './domain-txt-lookup';

const lookupVia = (server: string) => new DomainTxtLookup({ dnsServers: [server] } as ServiceConfig);

describe('DomainTxtLookup', () => {
  it('answers each TXT record as one string, and none for a name without records', async () => {
    const dns = await startDnsTxtServer();
    try {
      dns.setTxt('_pss-challenge.loja.example', ['pss-verify=abc', 'v=spf1 -all']);
      expect(await lookupVia(dns.address).txt('_pss-challenge.loja.example')).toEqual(['pss-verify=abc', 'v=spf1 -all']);
      expect(await lookupVia(dns.address).txt('_pss-challenge.other.example')).toEqual([]);
    } finally {
      await dns.close();
    }
  });

  it('gives up on a resolver that never answers within its bound, with a retryable 503', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      await expect(lookupVia(`127.0.0.1:${(silent.address() as AddressInfo).port}`).txt('_pss-challenge.loja.example')).rejects.toMatchObject({
        code: 'service_unavailable',
        message: 'The DNS lookup of _pss-challenge.loja.example timed out; retry shortly',
        retryAfterSeconds: 30,
      });
      expect(Date.now() - started).toBeLessThan(5500);
    } finally {
      silent.close();
    }
  });
});
