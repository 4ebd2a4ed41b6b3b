import { CommandIds, commandMetaOf } from './command-meta';

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
