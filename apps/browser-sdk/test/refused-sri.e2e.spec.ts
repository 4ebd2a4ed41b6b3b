import { createHash } from 'node:crypto';
import { describeInChromium, serviceInChromium } from './service-in-chromium';

const token = (algorithm: 'sha256' | 'sha384' | 'sha512', text: string) => `${algorithm}-${createHash(algorithm).update(text).digest('base64')}`;

describeInChromium('a pinned script the browser refused, in Chromium, against the running service', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read']);

  it('shows the refused script with its real hash and the refusal, opens an alert, and leaves the one that ran alone', async () => {
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token, {});
    const swapped = 'window.vendorRan = true; /* swapped upstream */';
    const kept = 'window.keptRan = true;';
    fixtures.script('/refused/vendor.js', swapped, { cors: true });
    fixtures.script('/refused/kept.js', kept, { cors: true });
    // The shop pinned the vendor's previous release with SHA-256: what is served now is something else.
    const pinned = token('sha256', 'window.vendorRan = true;');
    const url = fixtures.page(
      '/refused/checkout',
      `<!doctype html><html><head>${store.snippets.html}
         <script src="${fixtures.url('/refused/vendor.js', 'other')}" integrity="${pinned}" crossorigin="anonymous"></script>
         <script src="${fixtures.url('/refused/kept.js', 'other')}" integrity="${token('sha256', 'no')} ${token('sha512', kept)}" crossorigin="anonymous"></script>
       </head><body><form><input name="cardnumber" autocomplete="cc-number"></form></body></html>`,
    );
    const { page } = await rig.visit(url);
    expect(await page.evaluate('[!!window.vendorRan, !!window.keptRan]')).toEqual([false, true]);

    const list = await rig.scriptsUntil(store.id, (found) => found.filter((s) => s.src.includes('/refused/')).length === 2);
    const vendor = list.find((s) => s.src.endsWith('/refused/vendor.js'));
    expect(vendor).toMatchObject({
      current_hash: token('sha384', swapped),
      hash_source: 'sdk',
      integrity_attr: true,
      sri_hash: pinned,
      integrity_status: 'mismatch',
      sri_refused: true,
      sri_refused_at: expect.any(String),
    });
    expect(list.find((s) => s.src.endsWith('/refused/kept.js'))).toMatchObject({ current_hash: token('sha384', kept), integrity_status: 'monitored', sri_refused: false });

    const alerts = await rig.alertsUntil(store.id, (found) => found.some((a) => a.type === 'SCRIPT_INTEGRITY_MISMATCH'));
    expect(alerts.filter((a) => a.type === 'SCRIPT_INTEGRITY_MISMATCH')).toEqual([
      expect.objectContaining({
        status: 'open',
        severity: 'high',
        source: vendor.src,
        details: expect.objectContaining({ script_id: vendor.id, new_hash: token('sha384', swapped), refused_integrity: pinned, sri_refused: true }),
      }),
    ]);
  }, 60_000);
});
