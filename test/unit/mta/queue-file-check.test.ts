import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { ProcessDelivery, QueueTodo, ReplayableMessage } from '../../../src/mta/queue-file-check';
import { checkQueueFile, streamedLength, verifyingProcessDelivery } from '../../../src/mta/queue-file-check';

/** Haraka's own message stream (no type declarations): the one its outbound queue pipes. */
interface HarakaMessageStream extends ReplayableMessage {
  add_line(line: string): void;
  add_line_end(): void;
}
const MessageStream = createRequire(__filename)('haraka-message-stream') as new (
  cfg: unknown,
  id: string,
) => HarakaMessageStream;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-queue-check-'));
const MESSAGE = 'Subject: hi\r\n\r\n.leading dot\r\nbody\r\n';

function message(): ReplayableMessage {
  const ms = new MessageStream({ main: { spool_after: 1024 * 1024 } }, 'queue-check');
  for (const line of MESSAGE.split(/(?<=\r\n)/)) ms.add_line(line);
  ms.add_line_end();
  return ms;
}

/** What Haraka writes (outbound/index.js build_todo): a length, the JSON todo, the message. */
function queueFile(name: string, body: string): string {
  const header = Buffer.from(`\n${JSON.stringify({ uuid: name })}\n`);
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(header.length, 0);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.concat([prefix, header, Buffer.from(body)]));
  return file;
}

describe('queue file check', () => {
  it('reads the message again as Haraka pipes it into the queue file', async () => {
    assert.equal(await streamedLength(message(), { dot_stuffed: false }), Buffer.byteLength(MESSAGE));
  });

  it('accepts a complete file and refuses a truncated one', async () => {
    const bytes = Buffer.byteLength(MESSAGE);
    await checkQueueFile(queueFile('whole', MESSAGE), bytes);
    await assert.rejects(
      checkQueueFile(queueFile('cut', MESSAGE.slice(0, 10)), bytes),
      /holds \d+ bytes, expected/,
    );
    await assert.rejects(checkQueueFile(queueFile('empty', ''), bytes), /expected/);
    fs.writeFileSync(path.join(dir, 'two-bytes'), 'ab');
    await assert.rejects(checkQueueFile(path.join(dir, 'two-bytes'), bytes), /at least a header/);
  });

  it('turns a resolved delivery with a truncated file into a rejection and removes the file', async () => {
    // Stands in for Haraka's process_delivery when the rename won its race with the write error.
    const truncating: ProcessDelivery = (okPaths) => {
      okPaths.push(queueFile('raced', MESSAGE.slice(0, 12)));
      return Promise.resolve();
    };
    const okPaths: string[] = [];
    const todo: QueueTodo = { message_stream: message() };
    await assert.rejects(verifyingProcessDelivery(truncating)(okPaths, todo, []), /not queued/);
    assert.equal(fs.existsSync(path.join(dir, 'raced')), false);
  });

  it('lets a complete delivery through, and wraps only once', async () => {
    const writing: ProcessDelivery = (okPaths) => {
      okPaths.push(queueFile('fine', MESSAGE));
      return Promise.resolve();
    };
    const wrapped = verifyingProcessDelivery(writing);
    assert.equal(verifyingProcessDelivery(wrapped), wrapped);
    const okPaths: string[] = [];
    await wrapped(okPaths, { message_stream: message() }, []);
    assert.deepEqual(okPaths, [path.join(dir, 'fine')]);
    assert.equal(fs.existsSync(okPaths[0]!), true);
  });
});
