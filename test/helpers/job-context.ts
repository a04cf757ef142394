// What the JobRunner hands a handler, built by hand so a test can call one handler directly.
import type { HandlerJob, JobContext } from '../../src/jobs/job-handler';
import { newId } from '../../src/shared/ids';
import type { CapturedLog } from './capture-log';

export function jobContext(log: CapturedLog, signal = new AbortController().signal): JobContext {
  return { signal, logger: log.logger };
}

export function handlerJob(
  queue: HandlerJob['queue'],
  payload: unknown,
  attempts = 1,
  maxAttempts = 10,
): HandlerJob {
  return { id: newId('job'), queue, payload, attempts, maxAttempts };
}
