import { forbiddenContent, isWellFormedText, MAX_JSON_DEPTH, nestsDeeperThan } from './json-guard';

describe('JSON body guard', () => {
  describe('nestsDeeperThan', () => {
    const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

    it('lets a body nest exactly to the limit and refuses one level more', () => {
      expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
      expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
      expect(nestsDeeperThan('['.repeat(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    });

    it('counts depth, not brackets: siblings do not add up', () => {
      expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1] }))), 3)).toBe(false);
    });

    it('ignores brackets inside strings, escaped quotes included', () => {
      expect(nestsDeeperThan(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[" ok' }), 2)).toBe(false);
    });

    it('reads a million open brackets without recursion', () => {
      expect(nestsDeeperThan('['.repeat(1_000_000), MAX_JSON_DEPTH)).toBe(true);
    });
  });

  describe('isWellFormedText', () => {
    it('accepts text with paired surrogates (emoji), RTL marks, combining marks and NUL', () => {
      expect(isWellFormedText('pagamento 💳 \u202Eabc e\u0301 \u0000')).toBe(true);
    });

    it('refuses a lone high or low surrogate, wherever it stands', () => {
      for (const text of ['\uD800', 'a\uD800b', '\uDC00', 'x\uDFFFy', '\uDC00\uD800']) expect(isWellFormedText(text)).toBe(false);
    });
  });

  describe('forbiddenContent', () => {
    it('finds nothing in an ordinary body', () => {
      expect(forbiddenContent({ domain: 'loja.com.br', recipients: [{ method: 'pix', key: 'k' }], developer_mode: false })).toEqual([]);
    });

    it('names each prototype key by its path, at any depth', () => {
      const body = JSON.parse('{"__proto__":{"x":1},"match":{"constructor":{}},"list":[{"prototype":1}]}');
      expect(forbiddenContent(body)).toEqual(
        expect.arrayContaining([
          { field: '__proto__', message: '__proto__ is not accepted as a field name' },
          { field: 'match.constructor', message: 'constructor is not accepted as a field name' },
          { field: 'list.0.prototype', message: 'prototype is not accepted as a field name' },
        ]),
      );
    });

    it('names the field holding a lone surrogate without echoing it', () => {
      const details = forbiddenContent(JSON.parse('{"owner_email":"a\\ud800@x.com","tags":["ok","\\udc00"]}'));
      expect(details).toEqual(
        expect.arrayContaining([
          { field: 'owner_email', message: 'owner_email must be well-formed Unicode text (it holds a lone surrogate)' },
          { field: 'tags.1', message: 'tags.1 must be well-formed Unicode text (it holds a lone surrogate)' },
        ]),
      );
      expect(JSON.stringify(details)).not.toMatch(/\\ud[89a-f]/i);
    });

    it('flags a field name with a lone surrogate on its parent, and a bare top-level string on the body', () => {
      expect(forbiddenContent(JSON.parse('{"a":{"\\ud800":1}}'))).toEqual([{ field: 'a', message: 'a has a field name that is not well-formed Unicode text' }]);
      expect(forbiddenContent('\uD800')).toEqual([{ message: 'The body must be well-formed Unicode text (it holds a lone surrogate)' }]);
    });

    it('reports at most ten problems', () => {
      expect(forbiddenContent(Array.from({ length: 100 }, () => '\uD800'))).toHaveLength(10);
    });
  });
});
