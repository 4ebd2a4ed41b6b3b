import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

/** Whether a Docker daemon answers and Compose v2 is there: without both the smoke test cannot run. */
export function containerRuntimeAnswers(): boolean {
  const answers = (args: string[]) => spawnSync('docker', args, { stdio: 'ignore' }).status === 0;
  return answers(['info']) && answers(['compose', 'version']);
}

/** `docker compose` on the repository's files, with the environment the override file reads. */
export class Compose {
  constructor(
    private readonly cwd: string,
    private readonly files: string[],
    private readonly env: Record<string, string>,
  ) {}

  /** Runs a compose command with its output shown; throws when it fails. */
  run(args: string[]): void {
    this.check(args, this.spawn(args, 'inherit'));
  }

  /** An admin CLI command inside the inventory container, whose control socket serves org and token commands. */
  admin(words: string[]): any {
    const args = ['exec', '-T', 'inventory', 'npm', 'run', '-s', 'admin', '--', ...words];
    const answer = JSON.parse(this.check(args, this.spawn(args, 'pipe')).stdout);
    if (answer.error) throw new Error(`admin ${words.slice(0, 2).join(' ')}: ${JSON.stringify(answer.error)}`);
    return answer;
  }

  private spawn(args: string[], stdio: 'inherit' | 'pipe'): SpawnSyncReturns<string> {
    const files = this.files.flatMap((file) => ['-f', file]);
    return spawnSync('docker', ['compose', ...files, ...args], {
      cwd: this.cwd,
      env: { ...process.env, ...this.env },
      encoding: 'utf8',
      stdio: stdio === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'inherit'],
    });
  }

  private check(args: string[], result: SpawnSyncReturns<string>): SpawnSyncReturns<string> {
    if (result.status !== 0) throw new Error(`docker compose ${args.slice(0, 3).join(' ')} exited with ${result.status ?? result.signal}`);
    return result;
  }
}
