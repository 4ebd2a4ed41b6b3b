// Flags that change what matches but have no counterpart in a JSON Schema `pattern` (multiline, dotAll, sticky,
// and the set notation of `v`). `i` is spelled out below; `g`, `u` and `d` change nothing `@Matches` sees.
const UNREPRESENTABLE_FLAGS = /[msyv]/;

// Escapes whose meaning does not change with case-insensitivity: character classes, control characters and
// escaped syntax characters. Any other (`\u0061`, `\x41`, `\p{Lu}`, back-references) hides a case this cannot see.
const CASELESS_ESCAPE = /^[dDsSwWbBnrtfv^$\\.*+?()[\]{}|/-]$/;

/**
 * The JSON Schema `pattern` matching the strings `regex` does: ECMA-262 source without flags, which validators
 * compile with Unicode semantics. Undefined when no such pattern can be written.
 */
export function patternOf(regex: RegExp): string | undefined {
  if (UNREPRESENTABLE_FLAGS.test(regex.flags)) return undefined;
  const source = regex.flags.includes('i') ? spellOutCase(regex.source) : regex.source;
  return source !== undefined && compilesWithUnicode(source) ? source : undefined;
}

/** The same pattern with case-insensitivity written out: `a` becomes `[aA]`, `[a-z]` becomes `[a-zA-Z]`. */
function spellOutCase(source: string): string | undefined {
  let out = '';
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at];
    if (char === '\\') {
      const escaped = source[at + 1] ?? '';
      if (!CASELESS_ESCAPE.test(escaped)) return undefined;
      out += char + escaped;
      at++;
    } else if (inClass) {
      if (char === ']') {
        inClass = false;
        out += char;
      } else if (source[at + 1] === '-' && source[at + 2] !== undefined && source[at + 2] !== ']') {
        const end = source[at + 2];
        if (end === '\\') return undefined;
        out += `${char}-${end}${otherCase(char, end)}`;
        at += 2;
      } else {
        out += char + otherCase(char, char);
      }
    } else if (char === '[') {
      inClass = true;
      out += char;
      if (source[at + 1] === '^') out += source[++at];
    } else if (source.startsWith('(?<', at) && /[\p{L}_$]/u.test(source[at + 3] ?? '')) {
      // A group's name is not text to match: copied as it is.
      const close = source.indexOf('>', at);
      out += source.slice(at, close + 1);
      at = close;
    } else {
      const other = otherCase(char, char);
      out += other ? `[${char}${other}]` : char;
    }
  }
  return out;
}

/** The letters of the range `start`-`end` in their other case, not already in it, as character-class text. */
function otherCase(start: string, end: string): string {
  const [from, to] = [start.charCodeAt(0), end.charCodeAt(0)];
  const codes = new Set<number>();
  for (let code = from; code <= to; code++) {
    const char = String.fromCharCode(code);
    for (const other of [char.toLowerCase(), char.toUpperCase()]) {
      const otherCode = other.charCodeAt(0);
      if (other.length === 1 && (otherCode < from || otherCode > to)) codes.add(otherCode);
    }
  }
  return asRanges([...codes].sort((a, b) => a - b));
}

/** Sorted character codes as class text, runs collapsed: `A-Z` rather than 26 letters. */
function asRanges(codes: number[]): string {
  let out = '';
  for (let at = 0; at < codes.length; ) {
    let last = at;
    while (codes[last + 1] === codes[last] + 1) last++;
    out += String.fromCharCode(codes[at]) + (last > at ? `-${String.fromCharCode(codes[last])}` : '');
    at = last + 1;
  }
  return out;
}

function compilesWithUnicode(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}
