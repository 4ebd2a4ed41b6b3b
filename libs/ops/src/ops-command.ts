import type { SerializedError } from '@pss/kernel';

/** A command operators run against a live process through its control socket (admin and projections CLIs). */
export type OpsArgs = Record<string, string | boolean>;
export type OpsProgress = (progress: Record<string, unknown>) => void;
/** `signal` aborts when the caller goes away (the CLI was stopped): long commands stop with it. */
export type OpsHandler = (args: OpsArgs, progress: OpsProgress, signal: AbortSignal) => Promise<unknown>;

export const OPS_COMMAND_METADATA = 'pss:ops-command';

/** Marks a provider method as the handler of an ops command, e.g. `@OpsCommand('token.create')`. */
export const OpsCommand =
  (name: string): MethodDecorator =>
  (target, key) => {
    const commands: Record<string, string | symbol> = Reflect.getMetadata(OPS_COMMAND_METADATA, target.constructor) ?? {};
    Reflect.defineMetadata(OPS_COMMAND_METADATA, { ...commands, [name]: key }, target.constructor);
  };

/** Lines of the control protocol: newline-delimited JSON, one request, then progress lines and one outcome. */
export interface OpsRequest {
  command: string;
  args: OpsArgs;
}

export type OpsReply =
  | { type: 'progress'; progress: Record<string, unknown> }
  | { type: 'result'; result: unknown }
  | { type: 'error'; error: SerializedError };
