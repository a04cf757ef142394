import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ThreadClient } from '../../../src/shared/thread-call';
import type { ThreadClientOptions } from '../../../src/shared/thread-call';
import type { Ask } from './thread-call-thread';

const script = path.join(__dirname, 'thread-call-thread.js');

function client(options: Partial<ThreadClientOptions<string>> = {}): ThreadClient<Ask, string, string> {
  return new ThreadClient<Ask, string, string>({
    script,
    fromReply: (message) => new Error(`from the thread: ${message}`),
    ...options,
  });
}

describe('ThreadClient and serveThreadCalls', () => {
  it('unreferenced (ref: false): a waiting call holds the process until its answer, an idle thread does not', () => {
    // A process of its own whose event loop holds nothing else: it prints the
    // answer only if the call kept it alive, and it ends only if the idle thread let go.
    const program = `
      const { ThreadClient } = require(${JSON.stringify(require.resolve('../../../src/shared/thread-call'))});
      const c = new ThreadClient({ script: ${JSON.stringify(script)}, ref: false, fromReply: (m) => new Error(m) });
      c.call({ kind: 'echo', value: 'answer', afterMs: 200 }).then((v) => console.log(v));
    `;
    const out = execFileSync(process.execPath, ['-e', program], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(out.trim(), 'answer!');
  });

  it('answers each call with its own reply, in whatever order they settle', async () => {
    const c = client();
    try {
      const slow = c.call({ kind: 'echo', value: 'slow', afterMs: 50 });
      const fast = c.call({ kind: 'echo', value: 'fast' });
      assert.equal(await fast, 'fast!');
      assert.equal(await slow, 'slow!');
      await assert.rejects(c.call({ kind: 'fail', message: 'no' }), { message: 'from the thread: no' });
      assert.equal(await c.call({ kind: 'echo', value: 'still up' }), 'still up!');
    } finally {
      await c.close();
    }
  });

  it('fails the calls waiting on a thread that dies, reports it, and starts a new thread', async () => {
    const died: Error[] = [];
    const c = client({
      threadFailed: (cause) => new Error('thread gone', { cause }),
      onThreadDied: (err) => died.push(err),
    });
    try {
      const waiting = c.call({ kind: 'echo', value: 'late', afterMs: 1000 });
      const dying = c.call({ kind: 'die' });
      await assert.rejects(waiting, { message: 'thread gone' });
      await assert.rejects(dying, { message: 'thread gone' });
      assert.equal(died.length, 1);
      assert.match(died[0]?.message ?? '', /exited with code 3/);
      assert.equal(c.running, false);
      assert.equal(await c.call({ kind: 'echo', value: 'again' }), 'again!');
      assert.equal(c.running, true);
    } finally {
      await c.close();
    }
  });

  it('close() lets the thread answer what it was asked; calls after it fail', async () => {
    const died: Error[] = [];
    const c = client({ stopped: () => new Error('closed'), onThreadDied: (err) => died.push(err) });
    const pending = c.call({ kind: 'echo', value: 'in flight', afterMs: 50 });
    await c.close();
    assert.equal(await pending, 'in flight!');
    assert.equal(c.running, false);
    await assert.rejects(c.call({ kind: 'echo', value: 'x' }), { message: 'closed' });
    assert.deepEqual(died, []);
  });

  it('closes an idle thread and starts one for the next call', async () => {
    const died: Error[] = [];
    const c = client({ idleMs: 100, onThreadDied: (err) => died.push(err) });
    try {
      assert.equal(c.running, false);
      assert.equal(await c.call({ kind: 'echo', value: 'a' }), 'a!');
      while (c.running) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await c.call({ kind: 'echo', value: 'b' }), 'b!');
      assert.deepEqual(died, []);
    } finally {
      await c.close();
    }
  });
});
