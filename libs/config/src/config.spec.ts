import { loadConfig } from './config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ mode: 'embedded', port: 3000, rateLimitPerMinute: 1200, readYourWritesTimeoutMs: 5000 });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.opsSocket).toBe(`${config.dataDir}/ops.sock`);
  });

  it('reads RATE_LIMIT_PER_MINUTE', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '60' }).rateLimitPerMinute).toBe(60);
  });

  it.each(['0', '-5', '1.5', 'many', '1000000001'])('refuses RATE_LIMIT_PER_MINUTE=%s at start-up', (value) => {
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: value })).toThrow(/RATE_LIMIT_PER_MINUTE must be an integer from 1 to 1000000000/);
  });

  it('refuses an unknown MODE', () => {
    expect(() => loadConfig({ MODE: 'cluster' })).toThrow(/MODE must be one of embedded, distributed/);
  });
});
