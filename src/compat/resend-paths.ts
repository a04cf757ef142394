/** The OpenAPI tag of every route of the compatibility surface. */
export const RESEND_TAG = 'Resend compatibility';

/** First path segments the compatibility surface serves (node_modules/resend: the SDK's resources). */
const SUPPORTED = ['emails', 'domains', 'api-keys', 'webhooks', 'suppressions'];

/** Resend resources Mailroom does not offer: answered 501 naming the feature (issue 20), by first segment. */
const UNSUPPORTED_RESOURCES: Readonly<Record<string, string>> = {
  audiences: 'Audiences',
  automations: 'Automations',
  broadcasts: 'Broadcasts',
  'contact-properties': 'Contact properties',
  contacts: 'Contacts',
  events: 'Events',
  inboxes: 'Inboxes',
  logs: 'Logs',
  oauth: 'OAuth grants',
  segments: 'Segments',
  templates: 'Templates',
  topics: 'Topics',
  usage: 'Usage',
};

/**
 * Sub-resources of supported resources that Mailroom does not offer, each a linear pattern
 * over the path (`[^/]+` segments, anchored). Checked only for requests no route answered.
 */
const UNSUPPORTED_PATHS: readonly { readonly pattern: RegExp; readonly feature: string }[] = [
  { pattern: /^\/emails\/receiving(?:\/|$)/, feature: 'Receiving emails (use GET /v1/inbound)' },
  { pattern: /^\/emails\/metrics\/?$/, feature: 'Email metrics (use GET /v1/stats)' },
  { pattern: /^\/emails\/[^/]+\/attachments(?:\/|$)/, feature: 'Sent email attachments' },
  { pattern: /^\/emails\/[^/]+\/share\/?$/, feature: 'Sharing emails' },
  { pattern: /^\/domains\/claim\/?$/, feature: 'Domain claims' },
  { pattern: /^\/domains\/[^/]+\/claim(?:\/|$)/, feature: 'Domain claims' },
  { pattern: /^\/webhooks\/[^/]+\/events(?:\/|$)/, feature: 'Webhook event logs' },
  { pattern: /^\/suppressions\/batch(?:\/|$)/, feature: 'Batch suppressions' },
];

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** Whether a path belongs to the compatibility surface (its errors are Resend-shaped). */
export function isResendPath(path: string): boolean {
  const first = firstSegment(path);
  return SUPPORTED.includes(first) || Object.hasOwn(UNSUPPORTED_RESOURCES, first);
}

/** The unsupported feature a path no route answered belongs to, or undefined. */
export function unsupportedFeature(method: string, path: string): string | undefined {
  const first = firstSegment(path);
  if (Object.hasOwn(UNSUPPORTED_RESOURCES, first)) return UNSUPPORTED_RESOURCES[first];
  if (method === 'PATCH' && /^\/api-keys\/[^/]+\/?$/.test(path)) return 'Renaming API keys';
  return UNSUPPORTED_PATHS.find((entry) => entry.pattern.test(path))?.feature;
}
