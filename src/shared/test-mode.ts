import type { SendMode } from '../db/schema';
import { forbidden } from './app-error';

/**
 * Test mode is a sandbox: a test-mode key may read, send into the capture, add a domain and
 * act on its own test mail, nothing else. Every other change (a live message cancelled, a
 * webhook or domain removed, limits, branding, inbound mail) would reach live mail.
 */
export function refuseLiveEffect(callerMode: SendMode, targetMode: SendMode = 'live'): void {
  if (callerMode === 'test' && targetMode === 'live')
    throw forbidden(
      'A test-mode API key cannot change what live mail depends on: use a live key or the dashboard',
    );
}
