import type { WritePacket } from '@nestjs/microservices';
import { DEAD_LETTER_TOPIC, InProcessBroker, type DeadLetter, type InProcessEndpoint } from '@pss/bus';
import { ProcessDownError } from '@pss/testkit';

/** Partitions of every topic, as BUS_TOPIC_PARTITIONS: a key's partition decides which member handles it. */
const PARTITIONS = 6;

/** One replica on the broker: its server once it consumes, and whether its process still runs. */
interface Member {
  endpoint?: InProcessEndpoint;
  alive: boolean;
  /** Settles when the member leaves the group (its process died): what it had not committed goes to another. */
  gone: Promise<void>;
  leave(): void;
  listeners: Set<(pattern: string, message: string) => void>;
}

/**
 * The in-process bus of several replicas, with Kafka's group semantics where one process's broker has none: every
 * replica is a member of each consumer group (a replica hosts every service), a message's key picks its partition
 * and the partition its member, and a member that dies hands what it was handling, uncommitted, to the member that
 * owns the partition after the rebalance. Requests are routed the same way and answered to their sender; replica
 * listeners (ReplicaEvents) hear every event on every member, as each process reads in a group of its own.
 *
 * The in-process transport drops a message's key (only Kafka's wire carries it), so the key is read from the
 * message as the publishers and the SDK path choose it: the store, else the organization.
 */
export class ConsumerGroupBroker {
  private readonly members: Member[] = [];
  private readonly deadLetters: DeadLetter[] = [];
  private opened!: () => void;
  /** Messages wait for a first consumer, as they would in a topic. */
  private readonly open = new Promise<void>((resolve) => (this.opened = resolve));

  /** A new replica's connection to the broker, and how its process dies (no drain, nothing committed). */
  join(): { broker: InProcessBroker; crash(): void } {
    let leave!: () => void;
    const gone = new Promise<void>((resolve) => (leave = resolve));
    const member: Member = { alive: true, gone, leave, listeners: new Set() };
    this.members.push(member);
    return {
      broker: new MemberConnection(this, member),
      crash: () => {
        member.alive = false;
        member.leave();
      },
    };
  }

  attach(member: Member, endpoint: InProcessEndpoint): void {
    member.endpoint = endpoint;
    this.opened();
  }

  listDeadLetters(): DeadLetter[] {
    return [...this.deadLetters];
  }

  async publish(pattern: string, data: unknown): Promise<void> {
    const message = JSON.stringify(data) ?? 'null';
    if (pattern === DEAD_LETTER_TOPIC) this.deadLetters.push(JSON.parse(message) as DeadLetter);
    await this.open;
    for (const member of this.live()) member.listeners.forEach((listener) => listener(pattern, message));
    // Until a member handles it to the end: one that dies meanwhile never committed it.
    for (;;) {
      const member = this.ownerOf(keyOf(data));
      if (!member?.endpoint) return;
      const handled = await Promise.race([member.endpoint.deliver(pattern, message).then(() => true), member.gone.then(() => false)]);
      if (handled) return;
    }
  }

  request(pattern: string, data: unknown, reply: (packet: WritePacket) => void): () => void {
    const message = JSON.stringify(data) ?? 'null';
    let listening = true;
    let answered = false;
    let cancel: (() => void) | undefined;
    const firstReply = (packet: WritePacket): void => {
      if (!listening || answered) return;
      if (packet.isDisposed || packet.err !== undefined) answered = true;
      reply(throughWire(packet));
    };
    const send = (): void => {
      const member = this.ownerOf(keyOf(data));
      cancel = member?.endpoint?.answer(pattern, message, firstReply);
      if (!member || !cancel) return firstReply({ err: { code: 'service_unavailable', message: `No service handles "${pattern}"` }, isDisposed: true });
      // A command its member did not answer before dying is redelivered, as its offset was never committed.
      void member.gone.then(() => {
        if (listening && !answered) send();
      });
    };
    send();
    return () => {
      listening = false;
      cancel?.();
    };
  }

  private live(): Member[] {
    return this.members.filter((member) => member.alive && member.endpoint);
  }

  /** The member owning the key's partition now: partitions dealt round the live members, as a range assignor would. */
  private ownerOf(key: string): Member | undefined {
    const live = this.live();
    return live.length ? live[(hash(key) % PARTITIONS) % live.length] : undefined;
  }
}

/** One replica's handle on the broker, given to its application in place of a broker of its own. */
class MemberConnection extends InProcessBroker {
  constructor(
    private readonly group: ConsumerGroupBroker,
    private readonly member: Member,
  ) {
    super();
  }

  override attach(endpoint: InProcessEndpoint): void {
    this.group.attach(this.member, endpoint);
  }

  /** A graceful close: the member leaves and the others take its partitions. */
  override detach(): void {
    this.member.alive = false;
    this.member.leave();
  }

  override listen(listener: (pattern: string, message: string) => void): () => void {
    this.member.listeners.add(listener);
    return () => this.member.listeners.delete(listener);
  }

  override request(pattern: string, data: unknown, reply: (packet: WritePacket) => void): () => void {
    if (!this.member.alive) {
      reply({ err: { code: 'service_unavailable', message: new ProcessDownError().message }, isDisposed: true });
      return () => undefined;
    }
    return this.group.request(pattern, data, reply);
  }

  override async publish(pattern: string, data: unknown): Promise<void> {
    // Nothing a dead process sends reaches the broker.
    if (!this.member.alive) throw new ProcessDownError();
    return this.group.publish(pattern, data);
  }

  override async list(): Promise<DeadLetter[]> {
    return this.group.listDeadLetters();
  }

  override async settled(): Promise<void> {}
}

/** The message's key as the producers choose it: the store, else the organization, else the message itself. */
function keyOf(data: unknown): string {
  const fields = (data ?? {}) as Record<string, unknown>;
  return String(fields.store_id ?? fields.storeId ?? fields.org_id ?? fields.orgId ?? fields.id ?? JSON.stringify(data));
}

function hash(key: string): number {
  let value = 5381;
  for (let index = 0; index < key.length; index += 1) value = ((value * 33) ^ key.charCodeAt(index)) >>> 0;
  return value;
}

// What crosses as a reply crosses as JSON, as in the application's own broker.
const throughWire = ({ err, response, isDisposed }: WritePacket): WritePacket => ({
  ...(err === undefined ? {} : { err: JSON.parse(JSON.stringify(err)) }),
  response: JSON.parse(JSON.stringify(response ?? null)),
  ...(isDisposed ? { isDisposed } : {}),
});
