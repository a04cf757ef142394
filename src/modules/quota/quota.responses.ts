import { z } from 'zod';

const usageWindow = z.object({ used: z.number().int(), limit: z.number().int() });

/** Sends counted in the current hour and day against the account's limits (quota.ts QuotaUsage). */
export const QuotaUsageView = z.object({ hour: usageWindow, day: usageWindow });
