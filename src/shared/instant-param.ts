import { z } from 'zod';

const DAY_MS = 86_400_000;

/**
 * A list filter's time bound, answered as `toISOString()` (the form created_at is stored and
 * compared in): an RFC 3339 instant with an offset, or a calendar day `YYYY-MM-DD` (a date
 * input's value) read as UTC — its start for a lower bound, the start of the next day for an
 * upper one, so `to=2026-11-20` includes that whole day.
 */
export function instantParam(bound: 'from' | 'to') {
  return z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((s, ctx) => {
    const start = Date.parse(s.length > 10 ? s : `${s}T00:00:00.000Z`);
    // Outside what a Date holds (a year past 275760): no instant to compare with.
    if (Number.isNaN(start)) {
      ctx.addIssue({ code: 'custom', message: 'not a representable time' });
      return z.NEVER;
    }
    return new Date(s.length > 10 || bound === 'from' ? start : start + DAY_MS).toISOString();
  });
}
