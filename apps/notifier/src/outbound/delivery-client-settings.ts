/** How the delivery client behaves, as a provider so tests can trust their own receiver and wait less. */
export const DELIVERY_CLIENT_SETTINGS = Symbol('DeliveryClientSettings');

export interface DeliveryClientSettings {
  /** Spec, Delivery: the endpoint must answer within 8 seconds. */
  timeoutMs: number;
  /** CA certificates (PEM) trusted besides the usual ones; in production, NODE_EXTRA_CA_CERTS does this. */
  extraCaPems: string[];
}

export const DEFAULT_DELIVERY_CLIENT_SETTINGS: DeliveryClientSettings = { timeoutMs: 8000, extraCaPems: [] };
