// The face of the delivery module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { deliveryView } from './delivery-explanation';
export type { FeedbackKind } from './delivery-status';
export { aggregate, feedbackStep } from './delivery-status';
export { DeliveryView } from './delivery.responses';
// The recipient rows' statements bounce intake and the node hand-back apply their feedback with.
export {
  findRecipient,
  hasEvent,
  listRecipients,
  moveRecipients,
  recipientStates,
  updateEmail,
  updateRecipient,
} from './delivery.repository';
export { messageBytes } from './message-bytes';
export { findPendingSend } from './pending-send.repository';
// Start-up with OUTBOUND_SENDER=worker: an old Haraka queue's mail becomes jobs (src/mta/outbound-queue-import.ts).
export type { QueuedDelivery, Takeover } from './queue-takeover';
export { takeOverQueuedDelivery } from './queue-takeover';
export { EMAIL_SEND_QUEUE, emailSendJob, resendJob } from './send-job';
