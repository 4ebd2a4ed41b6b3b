import { parse } from 'csv-parse/sync';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const SCOPES = ['stores:write', 'scripts:read', 'scripts:review', 'reports:read', 'reports:generate'];

/** Justifications are a tenant user's text: the report's CSV must not hand them to a spreadsheet as formulas (issue 29, item 9c). */
describe('formulas in a report CSV (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  const suite = embeddedSuite({ clock });

  it.each([
    ['a full-width equals sign', '＝HYPERLINK("https://evil.example/x","Ver detalhes")'],
    ['a full-width plus sign', '＋cmd|\' /C calc\'!A0'],
    // The API trims blanks off a justification, but not a zero-width space: behind one, blanks reach the cell.
    ['blanks before a formula', '\u200B   =1+1'],
    ['a line break before a formula', '\u200B\n@SUM(1+1)*cmd|\' /C calc\'!A0'],
    ['an ideographic space before a full-width minus sign', '\u200B\u3000－2+3'],
  ])('writes a justification starting with %s behind a quote', async (_, justification) => {
    const { token } = await suite.service.tenant(SCOPES, { plan: 'enterprise' });
    const store = await suite.service.createStore(token);
    await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://cdn.vendor.example/widget.js', hash: sri('widget') }]);
    const get = (url: string) => suite.service.request('GET', `/api/v1${url}`, { token });
    const [script] = (await eventually(() => get(`/scripts?store_id=${store.id}`), (answer) => answer.body.data?.length === 1)).body.data;
    const authorized = await suite.service.request('POST', `/api/v1/scripts/${script.id}/authorize`, { token, body: { justification } });
    expect(authorized.status).toBe(200);

    // The reports service learns of the authorization from an event: a report made before it shows no justification.
    const justified = async () => {
      const answer = await get(`/reports/pci?store_id=${store.id}&format=csv&csv_table=scripts&locale=en`);
      const [header, row] = parse(answer.text, { bom: true, record_delimiter: '\r\n' }) as string[][];
      return row[header.indexOf('Justification')];
    };
    expect(await eventually(justified, (cell) => cell !== '')).toBe(`'${justification}`);
  });
});
