import { PromptDecisions } from './prompt-decisions';

/** The policies as the prompt path sees them: each decision finishes (or fails) when the test says. */
class PendingPolicies {
  private readonly pending: Array<{ resolve: (decided: boolean) => void; reject: (error: Error) => void }> = [];

  decideAutomatically(): Promise<boolean> {
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  /** `decided` false: the policies found no script to look at. */
  async finish(failure?: Error, decided = true): Promise<void> {
    const next = this.pending.shift()!;
    if (failure) next.reject(failure);
    else next.resolve(decided);
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

  it('leaves to the consumer a script the policies found nothing of: not decided is not remembered as decided', async () => {
    prompt.decide('scr_1', 'sha384-a');
    await policies.finish(undefined, false);
    expect(prompt.takeDecided('scr_1', 'sha384-a')).toBe(false);
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
