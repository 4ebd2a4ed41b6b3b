import { toResource } from '@pss/contracts';
import { listedScript } from './listed-script';

describe('listedScript', () => {
  it('is the resource of the script without its reviews, to the byte', () => {
    const doc = {
      _id: 's1',
      org_id: 'o1',
      store_id: 'st1',
      src: 'https://cdn.example.net/a.js',
      status: 'needs_review',
      reviews: [{ at: '2026-01-01T00:00:00.000Z', by: 'api:abc', decision: 'authorized' }],
      sensitive_fields_accessed: ['card_number'],
      recommendation: null,
      _position: 7,
    };
    const { reviews: _reviews, ...script } = doc;
    expect(JSON.stringify(listedScript(doc))).toBe(JSON.stringify(toResource(script)));
    expect(listedScript(doc)).not.toHaveProperty('reviews');
  });
});
