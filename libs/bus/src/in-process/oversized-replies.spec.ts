import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { DomainError } from '@pss/kernel';
import { busWithBrokerLimit } from '../bus.conformance';
import { BUS, type Bus } from '../bus.port';
import { KAFKA_MAX_MESSAGE_BYTES } from './bus-faults';

/** A listing over the bus's limit (about 2 MiB of JSON), and a small one. */
@Controller()
class ListingCommands {
  @MessagePattern('listing.big')
  big(): { data: string[] } {
    return { data: Array.from({ length: 2048 }, (_, n) => `${n}`.padEnd(1024, '.')) };
  }

  @MessagePattern('listing.small')
  small(): { data: string[] } {
    return { data: ['one'] };
  }
}

/**
 * Issue 33, D8: Kafka refuses a message over its `message.max.bytes` (1 MiB by default), a reply included, and
 * Nest does not await a reply's send: the caller only timed out (503). The in-process bus now refuses such
 * messages too (a fault), and a reply over the limit is refused explicitly by the handler's side, at once.
 */
describe('Replies over 1 MiB (in-process bus with Kafka’s message limit)', () => {
  const suite = busWithBrokerLimit({ maxMessageBytes: KAFKA_MAX_MESSAGE_BYTES }, 2_000, [ListingCommands]);

  it('answers an oversized reply with payload_too_large at once, not a timeout', async () => {
    const bus = suite.app().get<Bus>(BUS);
    const started = Date.now();

    const failure = await bus.request('listing.big', {}).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/larger than the bus carries/) });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await bus.request('listing.small', {})).toEqual({ data: ['one'] });
  });

  it('refuses to publish an event over the limit, as a Kafka producer does', async () => {
    const bus = suite.app().get<Bus>(BUS);
    await expect(bus.publish('listing.published', { data: 'x'.repeat(KAFKA_MAX_MESSAGE_BYTES) })).rejects.toThrow(/too large/);
  });
});
