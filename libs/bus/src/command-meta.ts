import { deterministicUuid, validationError } from '@pss/kernel';

/**
 * What every command carries on the bus besides its payload (DESIGN.md section 1): an id, so that a command
 * delivered twice, or sent again by a client retrying with its Idempotency-Key, has one effect; and a deadline,
 * past which its caller no longer waits and the handler drops it unexecuted.
 */
export interface CommandMeta {
  id: string;
  /** ISO 8601 instant: the caller's timeout, measured from when it sent the command. */
  deadline: string;
  /**
   * Who acts, as the audit log names them (`user:<e-mail>`, `api:<token prefix>`, `admin-cli`, `system`): set by
   * the sender, not the payload, so every caller (the gateway, the dashboard) passes it the same way.
   */
  actor?: string;
}

/**
 * Commands are JSON objects; the metadata rides in this field of theirs, beside the envelope. A handler passes
 * `command.deadline` on in its CommandContext, so what it waits for (read-your-writes) ends before its caller
 * gives up.
 */
export interface CommandMetaCarrier {
  command?: CommandMeta;
}

/**
 * The ids of the commands one request sends, derived from `base` (the gateway derives it from the request's
 * Idempotency-Key): a retry of the same request sends the same command ids, in the same order, so a command the
 * first attempt left running is answered, not run twice. A request without one gets random ids.
 *
 * Passed explicitly (`Bus.request`'s `commandIds`), not kept in an AsyncLocalStorage: on Node 20 one storage in
 * use makes every promise of the process pay an async hook (docs/benchmarks.md, benchmark 4a).
 */
export class CommandIds {
  private readonly sent = new Map<string, number>();

  constructor(private readonly base: string) {}

  /** The id of the next command of `pattern` this request sends. */
  next(pattern: string): string {
    const sequence = this.sent.get(pattern) ?? 0;
    this.sent.set(pattern, sequence + 1);
    return deterministicUuid('command', this.base, pattern, String(sequence));
  }
}

/** The command metadata of a payload, when it has any. */
export function commandMetaOf(payload: unknown): CommandMeta | undefined {
  if (typeof payload !== 'object' || payload === null || !('command' in payload)) return undefined;
  const { command } = payload as CommandMetaCarrier;
  return typeof command?.id === 'string' && typeof command.deadline === 'string' ? command : undefined;
}

/**
 * The actor a command's metadata names. Commands that change what the audit log shows require one: a command
 * without it (or with a label of no known kind) is refused rather than recorded as nobody's.
 */
export function commandActor(meta: CommandMeta | undefined): string {
  const actor = meta?.actor;
  if (typeof actor !== 'string' || !ACTOR_LABEL.test(actor)) {
    throw validationError([{ field: 'actor', message: 'the command must name its actor: user:<e-mail>, api:<token prefix>, admin-cli or system' }]);
  }
  return actor;
}

const ACTOR_LABEL = /^(?:user:[^\s@]+@[^\s@]+\.[^\s@]+|api:[a-z0-9_]{1,32}|admin-cli|system)$/;

/** Adds the metadata to a command's payload; payloads that are no plain object (arrays, null) go as they are. */
export function withCommandMeta(payload: unknown, meta: CommandMeta): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return { ...payload, command: meta };
}
