import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { deterministicUuid } from '@pss/kernel';

/**
 * What every command carries on the bus besides its payload (DESIGN.md section 1): an id, so that a command
 * delivered twice, or sent again by a client retrying with its Idempotency-Key, has one effect; and a deadline,
 * past which its caller no longer waits and the handler drops it unexecuted.
 */
export interface CommandMeta {
  id: string;
  /** ISO 8601 instant: the caller's timeout, measured from when it sent the command. */
  deadline: string;
}

/** Commands are JSON objects; the metadata rides in this field of theirs, beside the envelope. */
export interface CommandMetaCarrier {
  command?: CommandMeta;
}

interface CommandScope {
  base: string;
  sent: Map<string, number>;
}

const scopes = new AsyncLocalStorage<CommandScope>();

/**
 * Runs `work` so that the commands it sends have ids derived from `base` (the gateway derives it from the
 * Idempotency-Key): a retry of the same request sends the same command ids, in the same order.
 */
export function withCommandIds<T>(base: string, work: () => T): T {
  return scopes.run({ base, sent: new Map() }, work);
}

/** The id of the next command of `pattern`: derived in a `withCommandIds` scope, random otherwise. */
export function nextCommandId(pattern: string): string {
  const scope = scopes.getStore();
  if (!scope) return randomUUID();
  const sequence = scope.sent.get(pattern) ?? 0;
  scope.sent.set(pattern, sequence + 1);
  return deterministicUuid('command', scope.base, pattern, String(sequence));
}

/** The command metadata of a payload, when it has any. */
export function commandMetaOf(payload: unknown): CommandMeta | undefined {
  if (typeof payload !== 'object' || payload === null || !('command' in payload)) return undefined;
  const { command } = payload as CommandMetaCarrier;
  return typeof command?.id === 'string' && typeof command.deadline === 'string' ? command : undefined;
}

/** Adds the metadata to a command's payload; payloads that are no plain object (arrays, null) go as they are. */
export function withCommandMeta(payload: unknown, meta: CommandMeta): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return { ...payload, command: meta };
}

const deadlines = new AsyncLocalStorage<string>();

/**
 * Runs a command's handling knowing its deadline (CommandDeadlineInterceptor does it for every command), so
 * whatever the handler waits for ends before it: AggregateRepository's read-your-writes waits read it here, for
 * handlers that do not pass the deadline themselves.
 */
export function withCommandDeadline<T>(deadline: string, work: () => T): T {
  return deadlines.run(deadline, work);
}

/** The deadline of the command being handled (ISO 8601), if any. */
export function currentCommandDeadline(): string | undefined {
  return deadlines.getStore();
}
