/**
 * The appliance's listener keys for ports taken with freePorts(5), all on
 * 127.0.0.1: PORT, WORKER_PORT, SMTP_PORT, SUBMISSION_PORT, MTA_INJECT_PORT.
 */
export function listenerEnv(ports: readonly number[]): Record<string, string> {
  return {
    PORT: String(ports[0]),
    WORKER_PORT: String(ports[1]),
    SMTP_PORT: String(ports[2]),
    SUBMISSION_PORT: String(ports[3]),
    MTA_INJECT_PORT: String(ports[4]),
    BIND_ADDRESS: '127.0.0.1',
  };
}
