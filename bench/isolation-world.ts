import { sri } from '@pss/testkit';
import type { HttpsReceiver } from '@pss/notifier/src/testing/https-receiver';
import { call, type ServiceProcess } from './isolation-service';
import type { Victim } from './isolation-victim';

export interface Attacker {
  token: string;
  storeId: string;
  sdkKey: string;
}

/** Scripts already on the attacker's store, so that its reports have something to fold: its whole burst. */
const ATTACKER_SCRIPTS = 200;

async function organization(service: ServiceProcess, name: string, scopes: string[][]): Promise<string[]> {
  const org = await service.ops('org.create', { name, plan: 'enterprise', 'owner-email': `owner@${name.toLowerCase().replace(/\W+/g, '-')}.example` });
  const tokens: string[] = [];
  for (const [n, list] of scopes.entries()) tokens.push((await service.ops('token.create', { org: org.id, name: `bench-${n}`, scopes: list.join(',') })).token);
  return tokens;
}

async function created(url: string, token: string, body: unknown): Promise<any> {
  const answer = await call(url, { method: 'POST', token, body });
  if (answer.status !== 201) throw new Error(`POST ${new URL(url).pathname} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer.json;
}

/**
 * Two enterprise organizations through the ops commands and the API. The victim: a store, a webhook channel for
 * script.detected on its own receiver, and a token per probed read (each read keeps inside its token's rate).
 * The attacker: a store holding ATTACKER_SCRIPTS scripts, and one token for everything it does.
 */
export async function makeWorld(service: ServiceProcess, victimReceiver: HttpsReceiver): Promise<{ victim: Victim; attacker: Attacker }> {
  const [victimAdmin, storesToken, scriptsToken] = await organization(service, 'Victim Shop', [['stores:write', 'webhooks:manage'], ['stores:read'], ['scripts:read']]);
  const domain = 'victim-shop.example';
  const victimStore = await created(`${service.baseUrl}/api/v1/stores`, victimAdmin, { domain });
  await created(`${service.baseUrl}/api/v1/webhooks`, victimAdmin, { url: victimReceiver.url('/victim'), events: ['script.detected'] });

  const [attackerToken] = await organization(service, 'Attacker', [['stores:write', 'webhooks:manage', 'reports:read']]);
  const attackerStore = await created(`${service.baseUrl}/api/v1/stores`, attackerToken, { domain: 'shop.attacker.example' });
  for (let first = 0; first < ATTACKER_SCRIPTS; first += 50) {
    const observations = Array.from({ length: 50 }, (_, i) => ({ kind: 'script', src: `https://cdn.attacker.example/lib-${first + i}.js`, hash: sri(`lib-${first + i}`) }));
    const body = { page_url: 'https://shop.attacker.example/checkout', session_id: `seed-${first}`, sdk_version: '1.0.0', observations };
    const answer = await call(`${service.baseUrl}/sdk/v1/events?key=${attackerStore.sdk_key}`, { method: 'POST', from: '192.0.2.10', body });
    if (answer.status !== 202) throw new Error(`seeding the attacker's store answered ${answer.status}`);
  }
  return {
    victim: { baseUrl: service.baseUrl, storesToken, scriptsToken, sdkKey: victimStore.sdk_key, domain },
    attacker: { token: attackerToken, storeId: attackerStore.id, sdkKey: attackerStore.sdk_key },
  };
}
