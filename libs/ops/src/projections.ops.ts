import { Injectable } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import { ProjectionRunner } from '@pss/projections';
import { OpsCommand, type OpsArgs, type OpsProgress } from './ops-command';

/** `npm run projections -- list | rebuild NAME | rebuild --all`, served by the process that runs them. */
@Injectable()
export class ProjectionsOps {
  constructor(private readonly runner: ProjectionRunner) {}

  @OpsCommand('projections.list')
  list() {
    return this.runner.status();
  }

  @OpsCommand('projections.rebuild')
  async rebuild(args: OpsArgs, progress: OpsProgress, signal: AbortSignal) {
    const names = args.all ? this.runner.names() : [String(args.name ?? '')];
    if (!args.all && !this.runner.names().includes(names[0])) {
      throw new DomainError('not_found', `Unknown projection "${names[0]}"; known: ${this.runner.names().join(', ')}`);
    }
    const results = [];
    // A cancelled rebuild throws `cancelled`, so the ones after it never start.
    for (const name of names) results.push(await this.runner.rebuild(name, (p) => progress({ ...p }), signal));
    return results;
  }
}
