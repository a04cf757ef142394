// A time budget per report (issue 17 finding 2). The size limits (REPORT_LIMITS) keep a parse to
// milliseconds; the budget is the backstop should some input still be slow: the reading stops at
// the next check and the job fails for good, instead of holding the worker and being retried.
import { performance } from 'node:perf_hooks';
import { PermanentJobError } from '../../worker/job-handler';

/** Checked between the steps of a reading; throws once the budget is spent. */
export interface ParseBudget {
  check(): void;
}

/** No limit: the classifier CLI, the corpus benchmark and tests. */
export const UNLIMITED: ParseBudget = { check: () => undefined };

/** Milliseconds one bounce-processing job may spend reading its report. */
export const REPORT_PARSE_BUDGET_MS = 2_000;

export function timeBudget(ms: number = REPORT_PARSE_BUDGET_MS): ParseBudget {
  const deadline = performance.now() + ms;
  return {
    check: () => {
      if (performance.now() > deadline) {
        throw new PermanentJobError(`reading the report took over ${ms} ms; it is not retried`);
      }
    },
  };
}
