import fc from 'fast-check';
import { canonicalJson } from '@pss/kernel';
import { reportBodyKey, reportBodyOf, reportDataJson } from './report-data-file';

const own = { report_id: '0193a5b0-7c1e-7d2a-9f00-5e1f2a3b4c5d', generated_at: '2026-11-23T12:00:00.000Z' };
const data = (meta: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
  alerts: [{ note: 'a "meta":{ in a note', page: '/checkout\\' }],
  headers: [{ name: 'meta', value: '{"meta":{"x":1}}' }],
  meta: { domain: 'loja.com.br', locale: 'pt-BR', schema_version: 2, store: { id: 's', name: 'Loja "meta"' }, ...own, ...meta },
  scope: { period_end: '2026-11-23T12:00:00.000Z' },
  ...rest,
});

describe('report data stored as a shared body', () => {
  it('puts the snapshot\'s own meta members back into exactly the canonical JSON of the whole data', async () => {
    const whole = data({});
    const body = canonicalJson(reportBodyOf(whole));

    expect(body).not.toContain(own.report_id);
    expect(body).not.toContain('"generated_at"');
    expect(await reportDataJson(body, own)).toBe(canonicalJson(whole));
  });

  it('gives two snapshots of the same facts one body, which another period does not share', () => {
    const first = canonicalJson(reportBodyOf(data({})));
    const second = canonicalJson(reportBodyOf(data({ report_id: 'another', generated_at: '2026-11-24T08:00:00.000Z' })));
    const later = canonicalJson(reportBodyOf(data({}, { scope: { period_end: '2026-11-23T12:00:00.001Z' } })));

    expect(second).toBe(first);
    expect(later).not.toBe(first);
  });

  it('answers a file that holds the whole data (snapshots made before bodies) as it is', async () => {
    const stored = canonicalJson(data({}));
    expect(await reportDataJson(stored, null)).toBe(stored);
  });

  it('recomposes any data, whatever its strings hold (quotes, backslashes, braces, keys named meta)', async () => {
    const text = fc.string({ unit: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', 'm', 'e', 't', 'a', 'é', ' ') });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(text, tie('value'), { maxKeys: 3 })),
    })).value;
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('alerts', 'headers', 'data_access', 'scope', 'scripts', 'meta_x'), json), fc.dictionary(text, json, { maxKeys: 3 }), async (rest, meta) => {
        const whole = { ...rest, meta: { ...meta, ...own } };
        expect(await reportDataJson(canonicalJson(reportBodyOf(whole)), own)).toBe(canonicalJson(whole));
      }),
    );
  });

  it('names a body by its hash, under a folder of its own', () => {
    expect(reportBodyKey('ab'.repeat(32))).toBe(`reports/bodies/${'ab'.repeat(32)}.json`);
  });
});
