import { IN_PROCESS_BROKER, InProcessBroker } from '@pss/bus';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

/**
 * Command and reply topics keep their messages for days: a webhook's signing secret must not be readable there.
 * Everything the in-process broker carries (what Kafka would store) is recorded and searched for the secrets the
 * client sent and received.
 */
describe('webhook secrets on the bus (embedded)', () => {
  let service: EmbeddedHarness;
  let token: string;
  const onTheWire: string[] = [];

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    ({ token } = await service.tenant(['webhooks:manage']));
    const broker = service.app.get<InProcessBroker>(IN_PROCESS_BROKER);
    const request = broker.request.bind(broker);
    jest.spyOn(broker, 'request').mockImplementation((pattern, data, reply) => {
      onTheWire.push(JSON.stringify(data));
      return request(pattern, data, (packet) => {
        onTheWire.push(JSON.stringify(packet));
        reply(packet);
      });
    });
    const publish = broker.publish.bind(broker);
    jest.spyOn(broker, 'publish').mockImplementation((pattern, data) => {
      onTheWire.push(JSON.stringify(data));
      return publish(pattern, data);
    });
  });
  afterAll(() => service.close());

  const wireHolds = (secret: string): boolean => onTheWire.some((message) => message.includes(secret));

  it('carries a secret the client gave, one it was given and a rotated one only sealed', async () => {
    const given = 'whsec_given_by_the_client_0123456789';
    const rotated = 'whsec_rotated_by_the_client_987654321';

    const chosen = await service.request('POST', '/api/v1/webhooks', { token, body: { url: 'https://hooks.example.com/a', secret: given } });
    const generated = await service.request('POST', '/api/v1/webhooks', { token, body: { url: 'https://hooks.example.com/b' } });
    const patched = await service.request('PATCH', `/api/v1/webhooks/${chosen.body.id}`, { token, body: { secret: rotated } });

    expect([chosen.status, generated.status, patched.status]).toEqual([201, 201, 200]);
    expect(chosen.body).toMatchObject({ secret: given, secret_generated: false });
    expect(generated.body).toMatchObject({ secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), secret_generated: true });
    expect(onTheWire.length).toBeGreaterThan(0);
    expect([given, generated.body.secret, rotated].filter(wireHolds)).toEqual([]);
  });
});
