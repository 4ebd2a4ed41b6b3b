import { isDeclaredPage } from '@pss/contracts';
import { DomainError, type Decider, type DomainEvent } from '@pss/kernel';
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
  /** The store's payment pages' `url_pattern`s, as now: paths beyond them are capped. */
  paymentPages: readonly string[];
  at: Date;
}

export type PageHeadersState = Record<string, Record<string, string>>;

/**
 * Paths beyond the store's payment pages whose headers a store keeps (docs/decisions.md, issue 29): the key is
 * public, so without a cap any client could make a store keep a baseline for every path it invents.
 */
export const MAX_UNDECLARED_PAGES = 100;

/** A new path past MAX_UNDECLARED_PAGES: its headers are not recorded, and the SDK's 202 says why. */
export class UndeclaredPagesCapped extends DomainError {
  constructor() {
    super(
      'conflict',
      `headers not recorded: this store already keeps the headers of ${MAX_UNDECLARED_PAGES} paths that are not its payment pages; declare this page as a payment page to monitor it`,
    );
  }
}

export const pageHeadersDecider: Decider<PageHeadersState, ObserveHeaders, PageHeadersEvent> = {
  initialState: () => ({}),
  decide(command, state) {
    const { storeId, orgId, page, headers, paymentPages } = command;
    const at = command.at.toISOString();
    const before = state[page];
    if (!before) {
      // Counted against the payment pages as they are now: a path declared later stops counting.
      const undeclared = () => Object.keys(state).filter((path) => !isDeclaredPage(path, paymentPages)).length;
      if (!isDeclaredPage(page, paymentPages) && undeclared() >= MAX_UNDECLARED_PAGES) throw new UndeclaredPagesCapped();
      return [{ type: 'SecurityHeadersBaselined', data: { storeId, orgId, page, headers, at } }];
    }
    const changes = diffHeaders(before, headers);
    return changes.length ? [{ type: 'SecurityHeadersChanged', data: { storeId, orgId, page, pageUrl: command.pageUrl, changes, headers, at } }] : [];
  },
  evolve: (state, event) => ({ ...state, [event.data.page]: event.data.headers }),
};

export const pageHeadersStream = (storeId: string): string => `headers-${storeId}`;
