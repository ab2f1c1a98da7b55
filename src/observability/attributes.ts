// Span attribute names and the tracer name of berth's own spans.

/** The request id the logs carry (`requestId`), on the server span and every scheduler span. */
export const ATTR_REQUEST_ID = 'berth.request_id';
/** The scheduler stage of a span (`candidates`, `filter`, …). */
export const ATTR_STAGE = 'berth.stage';
/** The plugin a filter or weigher span ran. */
export const ATTR_PLUGIN = 'berth.plugin';

/** The name of the tracer berth's own spans come from. */
export const TRACER_NAME = 'berth';
/** The host a claim attempt tried (provider uuid). */
export const ATTR_HOST = 'berth.host';
/** How many consumers one schedule request places. */
export const ATTR_CONSUMERS = 'berth.consumers';
/** How many hosts a filter or the weighing received. */
export const ATTR_HOSTS_IN = 'berth.hosts_in';
