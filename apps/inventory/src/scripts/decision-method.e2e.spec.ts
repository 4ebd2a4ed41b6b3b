import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type ScriptDecisionEnvelope } from '@pss/contracts';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { sri } from '@pss/testkit';

/**
 * Issue 32 review: a decision's authorization_method is what its sender states, from the hand methods alone. The
 * dashboard says `manual`, the gateway nothing (`api`); a method only the service records is refused before the
 * block rule is written.
 */
describe('the method of a decision on a script (embedded)', () => {
  const suite = embeddedSuite({ scopes: ['stores:read', 'stores:write', 'scripts:read', 'scripts:review'] });
  const owner = { actor: 'user:owner@shop.example' };

  async function newScript(): Promise<{ storeId: string; scriptId: string }> {
    const store = await suite.newStore();
    const src = `https://cdn.vendor-${store.id.slice(0, 8)}.example/pay.js`;
    expect((await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src, hash: sri(src), hash_source: 'sdk' }])).status).toBe(202);
    const [script] = (await suite.get(`/scripts?store_id=${store.id}`)).body.data;
    return { storeId: store.id, scriptId: script.id };
  }

  const decide = (command: 'scriptAuthorize' | 'scriptBlock', scriptId: string, method?: string) =>
    suite.service.app
      .get<Bus>(BUS)
      .request(COMMANDS[command], { orgId: suite.orgId, id: scriptId, input: { justification: 'Card form of our PSP' }, method } as ScriptDecisionEnvelope, owner);

  it('records manual as the sender says, and api when it says nothing', async () => {
    const { scriptId } = await newScript();
    expect(await decide('scriptAuthorize', scriptId, 'manual')).toMatchObject({ status: 'authorized', authorization_method: 'manual', authorized_by: owner.actor });
    expect(await decide('scriptBlock', scriptId)).toMatchObject({ status: 'blocked', authorization_method: 'api', authorized_by: owner.actor });
    expect((await suite.get(`/scripts/${scriptId}`)).body).toMatchObject({ status: 'blocked', authorization_method: 'api' });
  });

  it('refuses a method only the service records, before any rule is written', async () => {
    const { storeId, scriptId } = await newScript();
    for (const method of ['expiry', 'policy', 'bogus']) {
      await expect(decide('scriptBlock', scriptId, method)).rejects.toMatchObject({
        code: 'validation_error',
        details: [{ field: 'method', message: 'method must be one of the following values: api, manual' }],
      });
    }
    await expect(decide('scriptAuthorize', scriptId, 'integrity')).rejects.toMatchObject({ code: 'validation_error' });
    expect((await suite.get(`/scripts/${scriptId}`)).body).toMatchObject({ status: 'needs_review', authorization_method: null });
    expect((await suite.get(`/rules?store_id=${storeId}`)).body.data).toEqual([]);
  });
});
