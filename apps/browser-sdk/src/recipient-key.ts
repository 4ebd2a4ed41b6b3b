/**
 * The Pix key of a "copia e cola" string (EMV QR code payload, BR Code): the merchant account template (IDs 26
 * to 51) whose GUI (sub-ID 00) is `br.gov.bcb.pix` holds the key in sub-ID 01. Undefined when not a BR Code.
 */
export function pixKeyOf(text: string): string | undefined {
  const payload = text.replace(/\s+/g, '');
  if (!/^000201/.test(payload)) return undefined;
  for (const [id, value] of tlv(payload)) {
    const n = Number(id);
    if (n < 26 || n > 51) continue;
    const fields = new Map(tlv(value));
    if ((fields.get('00') ?? '').toLowerCase() === 'br.gov.bcb.pix' && fields.get('01')) return fields.get('01');
  }
  return undefined;
}

function tlv(text: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (let i = 0; i + 4 <= text.length; ) {
    const id = text.slice(i, i + 2);
    const length = Number(text.slice(i + 2, i + 4));
    if (!/^\d\d$/.test(id) || !Number.isInteger(length) || i + 4 + length > text.length) break;
    fields.push([id, text.slice(i + 4, i + 4 + length)]);
    i += 4 + length;
  }
  return fields;
}
