const FRAME_URL = /(https?:\/\/[^\s()@]+?):\d+:\d+/g;

/** A query parameter of a URL, decoded as `URLSearchParams` would; null when absent or malformed. */
export function queryParam(url: string, name: string): string | null {
  const match = new RegExp(`[?&]${name}=([^&#]*)`).exec(url);
  try {
    return match ? decodeURIComponent(match[1].replace(/\+/g, ' ')) : null;
  } catch {
    return null;
  }
}

/** Without query and fragment: how the SDK compares script URLs (the SDK's own carries `?key=`). */
export const bareUrl = (url: string): string => url.replace(/[?#].*$/, '');

/** Scripts a field read names besides the innermost one: a bound, as the service's (libs/contracts observations.ts). */
export const MAX_CALLERS = 8;

/**
 * The scripts on the stack of a call into the SDK's hooks, innermost first: every distinct URL that is not the
 * SDK's own (Chromium `at f (url:1:2)`, Firefox and Safari `f@url:1:2`), the first then at most MAX_CALLERS more.
 * The first is the reader (an inline script shows as the page's URL); the others called it, so a skimmer that
 * reads through a library (jQuery's `.val()`) is named with it. No frame is judged a library here: a name is the
 * skimmer's to choose, what is authorized is the service's to know. The page's own URL is never a caller: every
 * inline handler of the checkout shows as it, and it is no script the inventory could authorize.
 */
export function scriptsOnStack(stack: string | undefined, selfUrl: string, pageUrl: string): string[] {
  const scripts: string[] = [];
  if (!stack) return scripts;
  const page = bareUrl(pageUrl);
  FRAME_URL.lastIndex = 0;
  for (let match = FRAME_URL.exec(stack); match && scripts.length <= MAX_CALLERS; match = FRAME_URL.exec(stack)) {
    const url = match[1];
    const bare = bareUrl(url);
    if (bare === selfUrl || scripts.indexOf(url) >= 0 || (scripts.length > 0 && bare === page)) continue;
    scripts.push(url);
  }
  return scripts;
}

/** Frames a call's stack keeps: enough for a library's own frames between the hook and the script behind it. */
const STACK_FRAMES = 40;

/** The scripts on the stack of a call into one of the SDK's hooks (a field read, a request), innermost first. */
export function scriptsOfCall(selfUrl: string, pageUrl: string): string[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_FRAMES;
  try {
    return scriptsOnStack(new Error().stack, selfUrl, pageUrl);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Every script URL of a stack, to find a tag manager that inserted something. */
export function stackUrls(stack: string | undefined): string[] {
  const urls: string[] = [];
  if (!stack) return urls;
  FRAME_URL.lastIndex = 0;
  for (let match = FRAME_URL.exec(stack); match; match = FRAME_URL.exec(stack)) urls.push(match[1]);
  return urls;
}

/** `GTM-XXXX` of a Google Tag Manager container URL (`…/gtm.js?id=GTM-XXXX`). */
export function gtmContainer(url: string): string | undefined {
  const match = /\/gtm\.js\?(?:[^#]*&)?id=(GTM-[A-Z0-9]+)/i.exec(url);
  return match ? match[1].toUpperCase() : undefined;
}

const ORIGIN = /^(https?:\/\/)(?:[^@/?#]*@)?([^/?#]+)/i;

/**
 * The origin of an element's `src` as the DOM gives it (absolute, normalized by the browser's URL parser), read
 * from the string: a page's first URL object is not free. Undefined for anything but http(s).
 */
export function originOf(href: string): string | undefined {
  const match = ORIGIN.exec(href);
  return match ? (match[1] + match[2]).toLowerCase() : undefined;
}
