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

/**
 * The script that called into the SDK's hooks: the first URL of the stack trace that is not the SDK's own
 * (Chromium `at f (url:1:2)`, Firefox and Safari `f@url:1:2`). An inline script shows as the page's URL.
 */
export function callerUrl(stack: string | undefined, selfUrl: string): string | undefined {
  if (!stack) return undefined;
  FRAME_URL.lastIndex = 0;
  for (let match = FRAME_URL.exec(stack); match; match = FRAME_URL.exec(stack)) {
    if (bareUrl(match[1]) !== selfUrl) return match[1];
  }
  return undefined;
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
