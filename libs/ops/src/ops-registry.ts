import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { DomainError } from '@pss/kernel';
import { OPS_COMMAND_METADATA, type OpsArgs, type OpsHandler, type OpsProgress } from './ops-command';

/** Every `@OpsCommand` of the application, found once at bootstrap. */
@Injectable()
export class OpsRegistry implements OnApplicationBootstrap {
  private readonly handlers = new Map<string, OpsHandler>();

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype || !wrapper.instance) continue;
      const commands: Record<string, string | symbol> | undefined = Reflect.getMetadata(OPS_COMMAND_METADATA, wrapper.metatype);
      for (const [name, method] of Object.entries(commands ?? {})) {
        const instance = wrapper.instance as Record<string | symbol, OpsHandler>;
        this.handlers.set(name, (args, progress, signal) => instance[method].call(instance, args, progress, signal));
      }
    }
  }

  commands(): string[] {
    return [...this.handlers.keys()].sort();
  }

  async run(command: string, args: OpsArgs, progress: OpsProgress = () => undefined, signal = new AbortController().signal): Promise<unknown> {
    const handler = this.handlers.get(command);
    if (!handler) throw new DomainError('unknown_command', `Unknown command "${command}"; known: ${this.commands().join(', ')}`);
    return handler(args, progress, signal);
  }
}
