import { EndpointGate } from './endpoint-gate';

const later = () => {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
};

describe('per-endpoint gate', () => {
  it('runs at most `limit` tasks per endpoint, the next in order as one ends, and never holds up another endpoint', async () => {
    const gate = new EndpointGate(2);
    const started: string[] = [];
    const slow = [later(), later(), later()];
    const tasks = slow.map((task, i) => gate.run('https://slow.example', async () => {
      started.push(`slow-${i}`);
      await task.done;
    }));
    const fast = gate.run('https://fast.example', async () => started.push('fast'));
    await fast;
    expect(started).toEqual(['slow-0', 'slow-1', 'fast']);
    slow[0].release();
    await tasks[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['slow-0', 'slow-1', 'fast', 'slow-2']);
    slow[1].release();
    slow[2].release();
    await Promise.all(tasks);
  });

  it('frees the slot of a task that failed', async () => {
    const gate = new EndpointGate(1);
    await expect(gate.run('e', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run('e', async () => 'next')).resolves.toBe('next');
  });
});
