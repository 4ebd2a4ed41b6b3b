import { gzipSync } from 'node:zlib';
import { buildSdk, COMPILE_HINT } from '@pss/api-gateway/src/sdk/sdk-bundle';

/** The size budget of issue 10: the whole SDK, as served, at most 12 KB gzip. */
const GZIP_BUDGET_BYTES = 12_000;

describe('the SDK bundle', () => {
  it(`stays within ${GZIP_BUDGET_BYTES} bytes gzip, one ES2017 IIFE with no dependency`, async () => {
    const { code, integrity } = await buildSdk();
    const gzip = gzipSync(code, { level: 9 }).length;
    expect(gzip).toBeLessThanOrEqual(GZIP_BUDGET_BYTES);
    const text = code.toString('utf8');
    expect(text.startsWith(`${COMPILE_HINT}\n"use strict";(()=>{`)).toBe(true);
    expect(text).not.toMatch(/\brequire\(|\bimport\(|\?\?|\?\./); // no module loader, nothing newer than ES2017
    expect(integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
  });
});
