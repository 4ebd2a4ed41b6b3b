import { PAGE_VIEW_READ_MS, PageViewReads } from './page-view-reads';

const jquery = { scriptId: 'jq', src: 'https://cdn.example/jquery.js', scriptAuthorized: true };
const skimmer = { scriptId: 'sk', src: 'https://evil.example/s.js', scriptAuthorized: false };

describe('page view reads', () => {
  it('holds a read against the outermost unauthorized script of its stack, for the page view only', () => {
    const reads = new PageViewReads();
    reads.remember('view', 'card_number', [jquery, skimmer], 0);
    expect(reads.of('view', 1)).toEqual({ scriptId: 'sk', src: 'https://evil.example/s.js', field: 'card_number' });
    expect(reads.of('another view', 1)).toBeNull();
    expect(reads.of('view', PAGE_VIEW_READ_MS)).toBeNull();
  });

  it('keeps nothing of a read by authorized scripts only', () => {
    const reads = new PageViewReads();
    reads.remember('view', 'cvv', [jquery], 0);
    expect(reads.of('view', 1)).toBeNull();
  });
});
