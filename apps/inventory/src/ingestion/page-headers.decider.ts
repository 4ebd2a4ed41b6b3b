import type { Decider, DomainEvent } from '@pss/kernel';
import { diffHeaders, type HeaderChange } from './security-headers';

/**
 * The security headers last seen on each payment page of a store (one stream per store). The first report of
 * a page sets its baseline; every later difference is a change PCI DSS 11.6.1 wants alerted.
 */
export type PageHeadersEvent =
  | DomainEvent<'SecurityHeadersBaselined', { storeId: string; orgId: string; page: string; headers: Record<string, string>; at: string }>
  | DomainEvent<
      'SecurityHeadersChanged',
      { storeId: string; orgId: string; page: string; pageUrl: string; changes: HeaderChange[]; headers: Record<string, string>; at: string }
    >;

export interface ObserveHeaders {
  storeId: string;
  orgId: string;
  /** The page's path: payment pages of one store may send different headers. */
  page: string;
  pageUrl: string;
  headers: Record<string, string>;
  at: Date;
}

export type PageHeadersState = Record<string, Record<string, string>>;

export const pageHeadersDecider: Decider<PageHeadersState, ObserveHeaders, PageHeadersEvent> = {
  initialState: () => ({}),
  decide(command, state) {
    const { storeId, orgId, page, headers } = command;
    const at = command.at.toISOString();
    const before = state[page];
    if (!before) return [{ type: 'SecurityHeadersBaselined', data: { storeId, orgId, page, headers, at } }];
    const changes = diffHeaders(before, headers);
    return changes.length ? [{ type: 'SecurityHeadersChanged', data: { storeId, orgId, page, pageUrl: command.pageUrl, changes, headers, at } }] : [];
  },
  evolve: (state, event) => ({ ...state, [event.data.page]: event.data.headers }),
};

export const pageHeadersStream = (storeId: string): string => `headers-${storeId}`;
