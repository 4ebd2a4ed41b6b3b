import { DomainError } from '@pss/kernel';
import { MAX_CONNECTIONS_PER_BATCH } from '@pss/contracts';
import { checkBatch } from './sdk-batch';

const envelope = { page_url: 'https://shop.example/checkout', session_id: '9f2c4e1a0b7d4c3e8a6f5d2b1c0e9a8f', sdk_version: '1.0.0', observations: [] };

/** The details of the 400 a bad envelope gets. */
function refusal(batch: object) {
  try {
    checkBatch(batch);
  } catch (error) {
    return (error as DomainError).details;
  }
  throw new Error('the batch was taken');
}

describe('the envelope of an SDK batch', () => {
  it('takes a batch as the SDK sends it', () => {
    expect(checkBatch(envelope)).toMatchObject({ pageUrl: 'https://shop.example/checkout', sessionId: envelope.session_id, sdkVersion: '1.0.0' });
  });

  it.each([
    ['a NUL', '\u0000'],
    ['a line break', '\r\n'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
    ['a right-to-left override', '\u202E'],
    ['a lone surrogate', '\ud800'],
  ])('refuses %s in session_id, sdk_version and page_url, as a 400 naming each', (_case, character) => {
    expect(refusal({ ...envelope, page_url: `https://shop.example/check${character}out`, session_id: `abc${character}`, sdk_version: `1.0${character}` })).toEqual([
      { field: 'page_url', message: 'page_url must be the http(s) URL of the page, without control characters' },
      { field: 'session_id', message: 'session_id must be a string of 1 to 128 characters, without control characters' },
      { field: 'sdk_version', message: 'sdk_version must be a string of 1 to 32 characters, without control characters' },
    ]);
  });

  it('rejects an observation nested too deeply with its own reason, in the 202 shape', () => {
    const deep = JSON.parse(`{"kind":"iframe","origin":"null","x":${'{"a":'.repeat(9)}1${'}'.repeat(9)}}`);
    expect(checkBatch({ ...envelope, observations: [{ kind: 'iframe', origin: 'null' }, deep] })).toMatchObject({
      rejected: 1,
      rejections: [{ index: 1, reason: 'observation is nested too deeply (more than 8 levels)' }],
    });
  });

  it('takes at most MAX_CONNECTIONS_PER_BATCH connections of a batch, rejecting the rest by index', () => {
    const connections = Array.from({ length: MAX_CONNECTIONS_PER_BATCH + 2 }, (_, n) => ({ kind: 'connection', origin: `https://c${n}.example`, via: 'fetch' }));
    const checked = checkBatch({ ...envelope, observations: [...connections, { kind: 'iframe', origin: 'null' }] });
    expect(checked.accepted).toHaveLength(MAX_CONNECTIONS_PER_BATCH + 1);
    expect(checked.accepted[MAX_CONNECTIONS_PER_BATCH]).toEqual({ kind: 'iframe', origin: 'null' });
    expect(checked).toMatchObject({
      rejected: 2,
      rejections: [
        { index: MAX_CONNECTIONS_PER_BATCH, reason: `a batch carries at most ${MAX_CONNECTIONS_PER_BATCH} connections` },
        { index: MAX_CONNECTIONS_PER_BATCH + 1, reason: `a batch carries at most ${MAX_CONNECTIONS_PER_BATCH} connections` },
      ],
    });
  });
});
