/**
 * Every queue of the job table. The first four are the spec's (`/metrics` reports
 * `mail_queue_depth` for them); the rest are ours. A job whose queue is not listed
 * here is never claimed by the worker, so enqueue only accepts these names.
 */
export const QUEUES = [
  'email-send',
  'email-send:failed',
  'bounce-processing',
  'webhook-delivery',
  'mta-outcome',
  'inbound-processing',
  'dns-recheck',
  'abuse-evaluation',
  'retention',
  'node-sweep',
] as const;

export type QueueName = (typeof QUEUES)[number];

const known = new Set<string>(QUEUES);

export function isQueueName(value: string): value is QueueName {
  return known.has(value);
}
