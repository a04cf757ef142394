// The face of the quota module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export type { QuotaUsage } from './quota';
export { accountUsage, consumeQuota, rateLimitPolicy, refundQuota } from './quota';
export type { QuotaConfig, QuotaLimits } from './quota-limits';
export { effectiveLimits, minuteOf } from './quota-limits';
export { QuotaUsageView } from './quota.responses';
