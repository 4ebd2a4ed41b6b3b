import { CommandIds, commandActor, commandMetaOf } from './command-meta';

describe('CommandIds', () => {
  const sent = (ids: CommandIds) => [ids.next('store.create'), ids.next('store.create'), ids.next('rule.create')];

  it('derives the same ids, in the same order, for the same base', () => {
    expect(sent(new CommandIds('request-1'))).toEqual(sent(new CommandIds('request-1')));
  });

  it('gives each command of a request its own id, and another request other ids', () => {
    const first = sent(new CommandIds('request-1'));

    expect(new Set(first).size).toBe(3);
    expect(sent(new CommandIds('request-2')).some((id) => first.includes(id))).toBe(false);
  });
});

describe('commandMetaOf', () => {
  it('reads the id and deadline a handler passes on', () => {
    const command = { id: 'c-1', deadline: '2026-03-01T12:00:10.000Z' };

    expect(commandMetaOf({ input: {}, command })).toEqual(command);
    expect(commandMetaOf({ input: {} })).toBeUndefined();
    expect(commandMetaOf({ command: { id: 'c-1' } })).toBeUndefined();
    expect(commandMetaOf(null)).toBeUndefined();
  });
});

describe('commandActor', () => {
  const meta = (actor?: string) => ({ id: 'c-1', deadline: '2026-03-01T12:00:10.000Z', ...(actor === undefined ? {} : { actor }) });

  it.each(['user:owner@shop.example', 'api:pss_tok_0123456789abcdef01234567', 'admin-cli', 'system'])('reads the actor %s', (actor) => {
    expect(commandActor(meta(actor))).toBe(actor);
  });

  it.each([
    ['no metadata', undefined],
    ['no actor', meta()],
    ['a person without an e-mail', meta('user:owner')],
    ['an unknown kind', meta('robot:r2')],
    ['a label with spaces', meta('user:o wner@shop.example')],
  ])('refuses a command with %s, so no change is recorded as nobody\'s', (_case, given) => {
    expect(() => commandActor(given)).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });
});
