import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { busWithBrokerLimit } from '../bus.conformance';
import { BUS, type Bus } from '../bus.port';

const SESSION_TIMEOUT_MS = 1_500;

/** A command that takes twice the session timeout (a policy applied to every script of a big store). */
@Controller()
class SlowCommands {
  runs = 0;

  @MessagePattern('policy.apply-slowly')
  async applySlowly(): Promise<{ applied: number }> {
    this.runs += 1;
    await new Promise((resolve) => setTimeout(resolve, 2 * SESSION_TIMEOUT_MS));
    return { applied: this.runs };
  }
}

/**
 * Issue 33, D8: kafkajs heartbeats only between messages, so a command handler running past the session timeout
 * got its consumer evicted and the command delivered again (run twice). The in-process bus evicts as Kafka does
 * (a fault); a running command heartbeats and runs once.
 */
describe('A command longer than the session timeout (in-process bus evicting silent consumers)', () => {
  const suite = busWithBrokerLimit({ sessionTimeoutMs: SESSION_TIMEOUT_MS }, 10_000, [SlowCommands]);

  it('runs once: its heartbeats keep its consumer in the group', async () => {
    const reply = await suite.app().get<Bus>(BUS).request('policy.apply-slowly', {});
    // A redelivery would have started by now (one fifth of the timeout after the session ran out).
    await new Promise((resolve) => setTimeout(resolve, SESSION_TIMEOUT_MS / 2));

    expect(reply).toEqual({ applied: 1 });
    expect(suite.app().get(SlowCommands).runs).toBe(1);
  }, 15_000);
});
