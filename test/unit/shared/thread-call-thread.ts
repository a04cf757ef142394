// The thread of test/unit/shared/thread-call.test.ts: answers calls as the request says.
import { serveThreadCalls } from '../../../src/shared/thread-call';

export type Ask =
  | { readonly kind: 'echo'; readonly value: string; readonly afterMs?: number }
  | { readonly kind: 'fail'; readonly message: string }
  | { readonly kind: 'die' };

serveThreadCalls(
  async (ask: Ask): Promise<string> => {
    if (ask.kind === 'fail') throw new Error(ask.message);
    if (ask.kind === 'die') process.exit(3);
    if (ask.afterMs) await new Promise((r) => setTimeout(r, ask.afterMs));
    return `${ask.value}!`;
  },
  { toReply: (err) => (err instanceof Error ? err.message : String(err)) },
);
