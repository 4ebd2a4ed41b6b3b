import { SCRIPTS, type ScriptDocument } from '@pss/contracts';
import { READ_STORE, type ReadCollection, type ReadStore } from '@pss/read-store';
import { eventually, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/**
 * Under a burst of new scripts the scripts read model lags behind the event store (one round trip per event on
 * MongoDB) for longer than any wait a decision may make. The policies decide from the script's own stream, so a
 * lagging read model neither delays nor drops an automatic block (review D4: it was recorded as decided, unmade).
 */
describe('automatic decisions while the scripts read model lags (embedded)', () => {
  const suite = embeddedSuite({ scopes: ['stores:write', 'scripts:read'] });

  it("blocks a threat by the default auto-block policy though the script's document is not there yet", async () => {
    const store = await suite.newStore();
    const readStore = suite.service.app.get<ReadStore>(READ_STORE);
    const collection = readStore.collection.bind(readStore);
    // The skimmer's document stays out of single-document reads, as a projection that has not reached it yet.
    const lagging = jest.spyOn(readStore, 'collection').mockImplementation(((name: string) => {
      const real = collection<ScriptDocument>(name);
      if (name !== SCRIPTS) return real;
      return Object.assign(Object.create(real) as ReadCollection<ScriptDocument>, {
        findOne: async (filter: Parameters<ReadCollection<ScriptDocument>['findOne']>[0]) => {
          const found = await real.findOne(filter);
          return found?.src.includes('magentocore') ? null : found;
        },
      });
    }) as ReadStore['collection']);
    try {
      const reported = await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') }]);
      expect(reported.status).toBe(202);
      const skimmer = await eventually(
        async () => (await suite.get(`/scripts?store_id=${store.id}`)).body.data.find((s: any) => s.src.includes('magentocore')),
        (script) => script?.status === 'blocked',
      );
      expect(skimmer).toMatchObject({ authorization_method: 'policy' });
    } finally {
      lagging.mockRestore();
    }
  });
});
