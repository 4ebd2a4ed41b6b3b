/**
 * What the SDK keeps between page views: the last block-mode config in localStorage (every tab of the shop starts
 * with the rules it knew), the session id and the headers already read in the tab's sessionStorage. Opening a storage
 * area is a synchronous round trip to the browser process, so each is opened only when first needed (the config
 * at the first script decision, the session at the first batch). Storage disabled or full: no memory, no harm.
 */
type Area = 'local' | 'session';

const area = (which: Area): Storage => (which === 'local' ? localStorage : sessionStorage);

export function remembered(which: Area, name: string): string | null {
  try {
    return area(which).getItem(name);
  } catch {
    return null;
  }
}

export function remember(which: Area, name: string, value: string): void {
  try {
    area(which).setItem(name, value);
  } catch {
    // storage disabled or full
  }
}

export function forget(which: Area, name: string): void {
  try {
    area(which).removeItem(name);
  } catch {
    // storage disabled
  }
}
