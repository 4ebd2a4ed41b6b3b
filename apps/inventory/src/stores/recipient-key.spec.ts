import { createHash } from 'node:crypto';
import { normalizeRecipientKey } from '@pss/sdk-contract';
import { hashRecipientKey, maskRecipientKey } from './recipient-key';

describe('recipient keys', () => {
  it.each([
    ['Pagamentos@Loja.com.br ', 'pagamentos@loja.com.br'],
    ['123.456.789-09', '12345678909'],
    ['12.345.678/0001-95', '12345678000195'],
    ['+55 (11) 98765-4321', '+5511987654321'],
    ['7D9F0335-8DCC-4054-9BF9-0D3A5CDB1E2A', '7d9f0335-8dcc-4054-9bf9-0d3a5cdb1e2a'],
  ])('normalizes %j to %j', (key, expected) => {
    expect(normalizeRecipientKey(key)).toBe(expected);
  });

  it('hashes the normalized key with SHA-256, so differently typed equal keys match', () => {
    const expected = createHash('sha256').update('12345678909').digest('hex');
    expect(hashRecipientKey('123.456.789-09')).toBe(expected);
    expect(hashRecipientKey(' 12345678909 ')).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('masks all but the ends of the key, and all of a short one', () => {
    expect(maskRecipientKey('pagamentos@loja.com.br')).toBe('pa************br');
    expect(maskRecipientKey('123.456.789-09')).toBe('12*******09');
    expect(maskRecipientKey('abc')).toBe('****');
    expect(maskRecipientKey('pagamentos@loja.com.br')).not.toContain('loja');
  });
});
