const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/**
 * Text a third party sent (a webhook receiver's answer, a domain's TXT records), made safe for a log line, a JSON
 * answer and a terminal: whitespace runs become one space, and control characters, invisible format characters
 * (bidi overrides such as U+202E, zero-width characters) and lone surrogates are dropped, so nothing can split a
 * line, move the cursor or show as something else.
 */
export const printable = (text: string): string => text.replace(/\s+/g, ' ').replace(CONTROL_OR_FORMAT, '');
