import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import {
  checkListeners,
  freeLoopbackPort,
  isListenError,
  listenFailure,
} from '../../../src/shared/listen-failure';

async function rejection(promise: Promise<unknown>): Promise<Error & { setting?: string; code?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  assert.fail('expected a rejection');
}

describe('listener pre-check (issue 21 item 3: one line naming the setting and port)', () => {
  it('names the setting of a port in use', async () => {
    const holder = net.createServer();
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve((holder.address() as net.AddressInfo).port)),
    );
    try {
      const free = await freeLoopbackPort();
      const err = await rejection(
        checkListeners([
          { setting: 'SUBMISSION_PORT', host: '127.0.0.1', port: free },
          { setting: 'SMTP_PORT', host: '127.0.0.1', port },
        ]),
      );
      assert.ok(isListenError(err));
      assert.equal(err.message, `SMTP_PORT ${port} is already in use`);
      assert.equal(err.setting, 'SMTP_PORT');
      assert.equal(err.code, 'EADDRINUSE');
      // The free one was bound and released again.
      await checkListeners([{ setting: 'SUBMISSION_PORT', host: '127.0.0.1', port: free }]);
    } finally {
      holder.close();
    }
  });

  it('says when BIND_ADDRESS is not an address of this host', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never configured on a host.
    const err = await rejection(checkListeners([{ setting: 'PORT', host: '192.0.2.1', port: 3000 }]));
    assert.ok(isListenError(err));
    assert.equal(err.message, 'PORT 3000 cannot be bound: 192.0.2.1 is not an address of this host');
  });

  it('explains a privileged port to a user without the privilege', async () => {
    const listener = { setting: 'SMTP_PORT', host: '127.0.0.1', port: 25 };
    // Root may bind port 25 (tests and CI run as root), so there the kernel's refusal is the
    // error object it would raise; as another user the bind itself is refused.
    const err =
      process.getuid?.() === 0
        ? listenFailure(listener, Object.assign(new Error('listen EACCES'), { code: 'EACCES' }))
        : await rejection(checkListeners([listener]));
    assert.ok(isListenError(err));
    assert.match(err.message, /^SMTP_PORT 25 cannot be bound: permission denied/);
  });
});
