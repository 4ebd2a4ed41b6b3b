import { nativeValue } from './fields';
import { sha256Hex } from './hashing';
import { normalizeRecipientKey } from '@pss/sdk-contract';
import { pixKeyOf } from './recipient-key';

export const hashRecipientKey = (key: string): Promise<string | undefined> => sha256Hex(normalizeRecipientKey(key));

export interface ShownRecipient {
  method: string;
  key: string;
}

/**
 * Where a page shows recipients: an element marked `data-pss-recipient="<method>"` (its value or text is the key,
 * or a copia e cola string), and, when the store takes Pix, any copia e cola string in an input, a textarea,
 * `<code>` or `<pre>`.
 */
export function shownRecipients(doc: Document, pix: boolean): ShownRecipient[] {
  const found: ShownRecipient[] = [];
  const textOf = (element: Element): string =>
    element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? nativeValue(element) : element.textContent || '';
  doc.querySelectorAll('[data-pss-recipient]').forEach((element) => {
    const text = textOf(element).trim();
    const method = (element.getAttribute('data-pss-recipient') || 'pix').toLowerCase();
    if (text) found.push({ method, key: pixKeyOf(text) ?? text });
  });
  if (pix) {
    doc.querySelectorAll('input,textarea,code,pre').forEach((element) => {
      if (element.hasAttribute('data-pss-recipient')) return;
      const text = textOf(element);
      const key = text.length > 40 && text.length < 1024 ? pixKeyOf(text) : undefined;
      if (key) found.push({ method: 'pix', key });
    });
  }
  return found;
}
