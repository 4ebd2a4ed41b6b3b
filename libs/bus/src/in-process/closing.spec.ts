import { randomUUID } from 'node:crypto';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { MongoNetworkError } from 'mongodb';
import { bootBusApp } from '../bus.conformance';
import { BUS, type Bus } from '../bus.port';
import { DEAD_LETTERS, type DeadLetterLog } from '../dead-letter';

let attempts = 0;

/** A consumer whose store stays out of reach: the interceptor retries it for as long as the outage lasts. */
@Controller()
class StoreOutOfReach {
  @EventPattern('test.stalled')
  handle(): never {
    attempts += 1;
    throw new MongoNetworkError('connection 1 to 10.0.0.7:27017 closed');
  }
}

const waitUntil = async (condition: () => boolean): Promise<void> => {
  while (!condition()) await new Promise(resolve => setTimeout(resolve, 10));
};

describe('Closing the bus', () => {
  it('stops retrying an event handler that waits out an outage, and dead-letters nothing', async () => {
    const app = await bootBusApp({ kind: 'in-process' }, { controllers: [StoreOutOfReach], providers: [], logger: false });
    const deadLetters = app.get<DeadLetterLog>(DEAD_LETTERS);
    const delivered = app.get<Bus>(BUS).publish('test.stalled', { id: randomUUID() });
    await waitUntil(() => attempts >= 3);

    await app.close();
    const attemptsAtClose = attempts;
    // The back-off stands at 0.4 s by now: a retry still scheduled would come well within a second.
    await new Promise(resolve => setTimeout(resolve, 1_000));

    expect(attempts).toBe(attemptsAtClose);
    // The handling ended (the publish settles) without its event counting as a poisoned one.
    await expect(delivered).resolves.toBeUndefined();
    expect(await deadLetters.list()).toEqual([]);
  });
});
