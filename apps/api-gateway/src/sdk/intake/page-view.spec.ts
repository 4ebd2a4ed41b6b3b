import type { Observation } from '@pss/contracts';
import { isPageView } from './page-view';

const script = { kind: 'script', inline: false, src: 'https://cdn.example.net/a.js', hash: 'sha384-a' } as Observation;
const headers = { kind: 'headers', headers: { 'content-security-policy': "default-src 'self'" } } as Observation;
const violation = { kind: 'csp_violation', directive: 'script-src', blocked_uri: 'https://x.example/a.js' } as Observation;

describe('isPageView', () => {
  it('is a batch with a script observation', () => {
    expect(isPageView({ observations: [headers, script] })).toBe(true);
  });

  it('is not an empty batch (a heartbeat), nor signals or headers alone', () => {
    expect(isPageView({ observations: [] })).toBe(false);
    expect(isPageView({ observations: [headers, violation] })).toBe(false);
  });
});
