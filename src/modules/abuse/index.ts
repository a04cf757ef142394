// The face of the abuse module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { abuseEvaluationPending, noteAbuseEvaluationEnqueued, requestAbuseEvaluation } from './abuse.jobs';
export { accountHealthSignals } from './abuse.usecases';
export { THRESHOLDS } from './signals';
