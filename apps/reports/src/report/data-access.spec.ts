import { decided, fact, pages, scriptDetected, STORE, storeCreated } from '../facts/testing/facts';
import { buildReport, type ReportRequest } from './build-report';

const request: ReportRequest = {
  reportId: 'r1',
  storeId: STORE,
  periodStart: '2026-11-09T00:00:00.000Z',
  periodEnd: '2026-11-23T00:00:00.000Z',
  locale: 'en',
  generatedAt: '2026-11-23T09:00:00.000Z',
};
const seen = { store_id: STORE, page_url: 'https://loja.example/checkout', session_id: 's' };
const jquery = { script_id: 'jquery', src: 'https://cdn.example/jquery.js', script_authorized: true };
const skimmer = { script_id: 'skimmer', src: 'https://skim.example/s.js', script_authorized: false };

describe('the report data_access section', () => {
  it('lists the script that read a field through a library, beside the library', async () => {
    const at = '2026-11-12T13:00:00.000Z';
    const facts = [
      storeCreated('2026-10-01T10:00:00.000Z'),
      scriptDetected('jquery', '2026-10-02T10:00:00.000Z', jquery.src),
      decided('inventory.script.authorized', 'jquery', '2026-10-03T10:00:00.000Z'),
      scriptDetected('skimmer', '2026-11-12T12:00:00.000Z', skimmer.src),
      fact('inventory.sensitive-field.accessed', at, { ...seen, at, ...jquery, field: 'cvv', callers: [skimmer] }),
      fact('inventory.sensitive-field.accessed', at, { ...seen, at, ...jquery, field: 'card_number' }),
    ];
    const data = await buildReport(request, { facts: pages(facts), sdkHours: [] });
    const rows = data.data_access.map(({ script_id, field_class, accesses, script_authorized }) => ({ script_id, field_class, accesses, script_authorized }));
    expect(rows).toEqual([
      { script_id: 'jquery', field_class: 'card_number', accesses: 1, script_authorized: true },
      { script_id: 'jquery', field_class: 'cvv', accesses: 1, script_authorized: true },
      { script_id: 'skimmer', field_class: 'cvv', accesses: 1, script_authorized: false },
    ]);
    expect(data.data_access.find((row) => row.script_id === 'skimmer')).toMatchObject({ src: skimmer.src, first_at: at, last_at: at });
  });
});
