import { ScriptWitnesses } from './script-witnesses';

describe('ScriptWitnesses', () => {
  it('vouches for a script once a second address reports it, never for one address repeating itself', () => {
    const witnesses = new ScriptWitnesses();
    expect(witnesses.corroborates('script-1', 'junk')).toBe(false);
    expect(witnesses.corroborates('script-1', 'junk')).toBe(false);
    expect(witnesses.corroborates('script-1', 'shopper')).toBe(true);
    expect(witnesses.corroborates('script-1', 'junk')).toBe(false);
    expect(witnesses.corroborates('script-2', 'shopper')).toBe(false);
  });
});
