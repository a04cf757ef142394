// A time budget per report (issue 17 finding 2). The size limits (REPORT_LIMITS) keep a reading to
// milliseconds; the budget is the backstop should some input still be slow. The reading runs under
// node:vm's timeout, whose watchdog interrupts JavaScript mid-statement (a backtracking regex
// included); the job then fails for good instead of holding the worker and being retried.
import vm from 'node:vm';
import { PermanentJobError } from '../../jobs/job-handler';

/** Milliseconds one bounce-processing job may spend reading its report. */
export const REPORT_PARSE_BUDGET_MS = 2_000;

// One context and one script for every call: `work` runs in our own realm, called from the script.
const context = vm.createContext({ work: null as (() => unknown) | null });
const call = new vm.Script('work()', { filename: 'bounce-parse-budget' });

/** `work()`, interrupted after `ms` with a PermanentJobError. Synchronous work only. */
export function withinBudget<T>(ms: number, work: () => T): T {
  (context as { work: (() => unknown) | null }).work = work;
  try {
    return call.runInContext(context, { timeout: ms }) as T;
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new PermanentJobError(`reading the report took over ${ms} ms; it is not retried`, { cause: err });
    }
    throw err;
  } finally {
    (context as { work: (() => unknown) | null }).work = null;
  }
}
