import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readStateFile, StateFile } from '../../../src/mta/destination-state-file';
import { PRIVATE_FILE_MODE } from '../../../src/shared/private-files';

describe('the mta state file writer', () => {
  it('writes off the loop, one at a time, the latest text last, private and whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-state-file-'));
    try {
      const file = path.join(dir, 'state.json');
      assert.equal(readStateFile(file), undefined, 'no file yet');
      const errors: unknown[] = [];
      const writer = new StateFile(
        () => file,
        (err) => errors.push(err),
      );
      for (let i = 0; i < 50; i++) writer.write(JSON.stringify({ i }));
      assert.equal(fs.existsSync(file), false, 'nothing written synchronously');
      await writer.flushed();
      assert.equal(readStateFile(file), '{"i":49}');
      assert.equal(fs.statSync(file).mode & 0o777, PRIVATE_FILE_MODE);
      assert.deepEqual(fs.readdirSync(dir), ['state.json'], 'no temporary file left');
      assert.equal(errors.length, 0);

      const broken = new StateFile(
        () => path.join(dir, 'missing', 'state.json'),
        (err) => errors.push(err),
      );
      broken.write('{}');
      await broken.flushed();
      assert.equal(errors.length, 1, 'a failed write is reported, not thrown');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
