import { CATALOGUES, translator } from './catalogue';
import { showTime } from './dates';
import { negotiateLocale } from './locale';

describe('the dashboard languages', () => {
  it('defaults to pt-BR, follows Accept-Language by quality, and the switcher (query, then cookie) wins', () => {
    expect(negotiateLocale({})).toBe('pt-BR');
    expect(negotiateLocale({ acceptLanguage: 'fr-FR, de;q=0.9' })).toBe('pt-BR');
    expect(negotiateLocale({ acceptLanguage: 'en-US,en;q=0.9,pt-BR;q=0.8' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: 'pt;q=0.5, en;q=0.8' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: 'en;q=0, pt-PT' })).toBe('pt-BR');
    expect(negotiateLocale({ acceptLanguage: 'en', cookie: 'pt-BR' })).toBe('pt-BR');
    expect(negotiateLocale({ acceptLanguage: 'pt-BR', cookie: 'pt-BR', query: 'en' })).toBe('en');
    expect(negotiateLocale({ query: 'xx', cookie: 'en' })).toBe('en');
  });

  it('has the same keys in both languages, and fills placeholders', () => {
    expect(Object.keys(CATALOGUES.en).sort()).toEqual(Object.keys(CATALOGUES['pt-BR']).sort());
    expect(translator('en')('home.signed-in-as', { email: 'me@shop.example' })).toBe('Signed in as me@shop.example');
    expect(translator('pt-BR')('error.rate-limited', { seconds: 30 })).toContain('30 segundos');
  });

  it("shows a time in the zone given, in the reader's language, with UTC beside it", () => {
    const shown = showTime('2026-03-01T15:30:00.000Z', 'pt-BR', 'America/Sao_Paulo');
    expect(shown.iso).toBe('2026-03-01T15:30:00.000Z');
    expect(shown.local).toMatch(/12:30/);
    expect(shown.utc).toMatch(/15:30/);
    expect(showTime('2026-03-01T15:30:00.000Z', 'en', 'UTC').local).toMatch(/3:30\sPM/);
  });
});
