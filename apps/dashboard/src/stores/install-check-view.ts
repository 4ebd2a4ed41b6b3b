import type { ScriptDocument } from '@pss/contracts';
import type { Locale, MessageKey, Translate } from '../i18n/catalogue';
import { showTime } from '../i18n/dates';
import { installCauses, type InstallCause, type InstallEvidence } from './install-check';

/**
 * The install check as text, the same for the page and for the JSON its script polls: the script only puts
 * these strings in place (`textContent`), so what it shows is what the server said, in the reader's language.
 */
export interface InstallCheckView {
  installed: boolean;
  status: string;
  scripts: Array<{ src: string; status: string }>;
  causes: Array<{ text: string; seen: boolean }>;
}

interface Reader {
  t: Translate;
  locale: Locale;
}

function causeText({ t, locale }: Reader, cause: InstallCause, timeZone: string): string {
  switch (cause.cause) {
    case 'csp-blocks-sdk':
      return t('stores.cause.csp-blocks-sdk', { count: cause.reports });
    case 'key-rotated':
      return t(cause.expired ? 'stores.cause.key-expired' : 'stores.cause.key-rotated', { until: showTime(cause.validUntil, locale, timeZone).local });
    default:
      return t(`stores.cause.${cause.cause}` as MessageKey);
  }
}

export function installCheckView(
  reader: Reader,
  evidence: InstallEvidence,
  scripts: Array<Pick<ScriptDocument, 'src' | 'status'>>,
  { timeZone, now }: { timeZone: string; now: Date },
): InstallCheckView {
  const { t, locale } = reader;
  const { sdk } = evidence;
  const status = sdk.installed
    ? t('stores.check.arrived', { at: showTime(sdk.last_event_at!, locale, timeZone).local, count: sdk.events_total })
    : t('stores.check.waiting');
  return {
    installed: sdk.installed,
    status,
    scripts: scripts.map(({ src, status: scriptStatus }) => ({ src, status: t(`stores.script.${scriptStatus}` as MessageKey) })),
    causes: installCauses(evidence, now).map((cause) => ({ text: causeText(reader, cause, timeZone), seen: cause.seen })),
  };
}
