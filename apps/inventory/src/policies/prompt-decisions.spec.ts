import { PromptDecisions } from './prompt-decisions';

/** The policies as the prompt path sees them: each decision finishes (or fails) when the test says. */
class PendingPolicies {
  private readonly pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

  decideAutomatically(): Promise<void> {
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  async finish(failure?: Error): Promise<void> {
    const next = this.pending.shift()!;
    if (failure) next.reject(failure);
    else next.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('PromptDecisions', () => {
  let policies: PendingPolicies;
  let prompt: PromptDecisions;

  beforeEach(() => {
    policies = new PendingPolicies();
    prompt = new PromptDecisions(policies);
  });

  it("tells the fact's consumer once that this content was decided, only after the decision is done", async () => {
    prompt.decide('scr_1', 'sha384-a');
    expect(prompt.takeDecided('scr_1', 'sha384-a')).toBe(false);

    prompt.decide('scr_2', 'sha384-b');
    await policies.finish();
    await policies.finish();
    expect(prompt.takeDecided('scr_2', 'sha384-b')).toBe(true);
    expect(prompt.takeDecided('scr_2', 'sha384-b')).toBe(false);
    expect(prompt.takeDecided('scr_2', 'sha384-other')).toBe(false);
  });

  it('leaves a decision that failed to the consumer', async () => {
    prompt.decide('scr_1', null);
    await policies.finish(new Error('read model unavailable'));
    expect(prompt.takeDecided('scr_1', null)).toBe(false);
  });

  it('forgets an earlier decision on the same content once it is recorded again, until decided again', async () => {
    prompt.decide('scr_1', 'sha384-a');
    await policies.finish();
    prompt.decide('scr_1', 'sha384-a');
    expect(prompt.takeDecided('scr_1', 'sha384-a')).toBe(false);
    await policies.finish();
    expect(prompt.takeDecided('scr_1', 'sha384-a')).toBe(true);
  });
});
