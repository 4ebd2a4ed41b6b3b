/**
 * How a payment page reached another origin, as the SDK tells it: a wrapped method (fetch, XHR, beacon, form,
 * WebSocket) or a resource timing entry (an image, or a request no wrapper saw).
 */
export const CONNECTION_VIAS = ['fetch', 'xhr', 'beacon', 'image', 'form', 'websocket'] as const;
export type ConnectionVia = (typeof CONNECTION_VIAS)[number];

/**
 * Connections one batch may carry, and one page view reports at most: a checkout talks to a handful of origins;
 * past this many the page is hostile or broken, and each one is a stream inventory may have to write.
 */
export const MAX_CONNECTIONS_PER_BATCH = 50;

/** Longest origin kept: a DNS name is at most 253 characters, with a scheme and a port. */
export const MAX_ORIGIN_LENGTH = 270;

/** The schemes a connection's origin may have (WebSockets beside http). */
export const CONNECTION_SCHEMES = ['http:', 'https:', 'ws:', 'wss:'];
