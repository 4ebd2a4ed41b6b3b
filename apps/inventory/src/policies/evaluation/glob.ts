/**
 * Path globs of policies: `*` matches within one path segment, `**` across segments, `?` one character.
 * Everything else is literal. Compiled once per pattern.
 */
const cache = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  let compiled = cache.get(glob);
  if (!compiled) {
    const source = glob
      .split(/(\*\*|\*|\?)/)
      .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    compiled = new RegExp(`^${source}$`);
    cache.set(glob, compiled);
  }
  return compiled;
}

export const matchesGlob = (path: string, glob: string): boolean => globToRegExp(glob).test(path);
