import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type ChannelResource } from '@pss/contracts';
import { listEmailChannels } from '@pss/dashboard-reads';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { DashboardInChromium, describeInChromium, pressByKeyboard } from './dashboard-browser';

/**
 * The notifier's refusals about no field, got from the running service (so a change of its wording shows here)
 * and said in the page's language: the two channel limits and a suspended store. Chromium only proves the
 * owner's passkey, which creating a channel asks for; the forms are then posted with the owner's session.
 */
describeInChromium('dashboard refusals in the page’s language (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  it("says the channel limits and a suspended store in Portuguese or English, never in the notifier's English inside Portuguese", async () => {
    const { service } = dashboard;
    const org = await service.createOrganization({ name: 'Shop', 'owner-email': 'me@shop.example' });
    const { token } = await service.ops('token.create', { org: org.id, name: 'setup', scopes: 'stores:write,stores:read' });
    const store = await service.createStore(token);
    const { page, context } = await dashboard.personWithPasskeyDevice();
    await page.goto(org.invitation_link as string);
    await pressByKeyboard(page, 'Accept and create my passkey');
    await pressByKeyboard(page, 'I saved the codes, continue');
    const cookie = await dashboard.sessionCookie(context);
    const csrf = await page.$eval('input[name="_csrf"]', (input) => input.getAttribute('value') ?? '');
    const post = (path: string, language: string, form: Record<string, string>) =>
      service.request('POST', path, {
        headers: { cookie, 'accept-language': language, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, name: 'One more', recipients: 'team@shop.example', min_severity: 'high', active: 'on', ...form }).toString(),
      });
    const bus = service.app.get<Bus>(BUS);
    const channelFor = (storeId: string | null) =>
      bus.request<ChannelResource>(COMMANDS.emailChannelCreate, { orgId: org.id, input: { name: 'Team', recipients: ['team@shop.example'], store_id: storeId } }, { actor: 'user:me@shop.example' });

    // The store's own channels up to its limit of 10 (its owner's e-mail channel among them).
    const ofStore = async () => (await listEmailChannels(service.app.get<symbol, ReadStore>(READ_STORE), org.id)).filter((channel) => channel.store_id === store.id);
    for (let count = (await ofStore()).length; count < 10; count += 1) await channelFor(store.id);
    const storeFull = await post('/dashboard/channels', 'pt-BR', { store_id: store.id });
    expect(storeFull.status).toBe(409);
    expect(storeFull.text).toContain('O canal não foi salvo: uma loja tem no máximo 10 canais próprios, o e-mail do proprietário da loja incluído; exclua um antes.');
    expect(storeFull.text).not.toContain('A store has at most');

    for (let count = 0; count < 20; count += 1) await channelFor(null);
    const organizationFull = await post('/dashboard/channels', 'pt-BR', { store_id: 'organization' });
    expect(organizationFull.status).toBe(409);
    expect(organizationFull.text).toContain(
      'O canal não foi salvo: uma organização tem no máximo 20 canais para toda a organização, webhooks incluídos; exclua um ou escolha uma loja.',
    );
    const inEnglish = await post('/dashboard/channels', 'en', { store_id: 'organization' });
    expect(inEnglish.text).toContain('The channel was not saved: an organization has at most 20 organization-wide channels, webhooks included; delete one or choose a store.');

    expect((await service.request('DELETE', `/api/v1/stores/${store.id}`, { token })).body.status).toBe('suspended');
    const [storeChannel] = await ofStore();
    const suspended = await post(`/dashboard/channels/${storeChannel.id}`, 'pt-BR', {});
    expect(suspended.status).toBe(409);
    expect(suspended.text).toContain('O canal não foi salvo: a loja está suspensa; ela pode ser consultada, mas não alterada.');
    expect(suspended.text).not.toContain('Store is suspended');
    expect((await post(`/dashboard/channels/${storeChannel.id}`, 'en', {})).text).toContain('The channel was not saved: the store is suspended; it can be read but not changed.');
    await context.close();
  }, 120_000);
});
