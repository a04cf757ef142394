import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isBackedUp,
  queueFileIdentity,
  supersededQueueFiles,
} from '../../../../src/cli/backup/backed-up-files';

describe('backup: which files are backed up', () => {
  it('copies everything in DATA_DIR except the live database, rendered config, backups and temp files', () => {
    const db = new Set(['mail.db', 'mail.db-wal', 'mail.db-shm', 'mail.db-journal']);
    for (const rel of [
      'secret.key',
      'mta-queue/1_2_0_9_AbCdEf_1_host',
      'mta-queue/error.x',
      'inbound/a.eml',
      'tls/cert.pem',
    ])
      assert.equal(isBackedUp(rel, db), true, rel);
    for (const rel of [
      'mail.db',
      'mail.db-wal',
      'mail.db-shm',
      'mta/config/smtp.ini',
      'backups/mailroom-backup-1/mail.db',
      '.backup-staging-x/y',
      '.restore-staging-x/y',
      'pre-restore-20250101T000000Z/mail.db',
      'mta-queue/__tmp__.1_2_0_9_AbCdEf_1_host',
      'lost+found/x',
    ])
      assert.equal(isBackedUp(rel, db), false, rel);
  });

  it('names a Haraka queue file by arrival and uid across deferral renames', () => {
    assert.deepEqual(queueFileIdentity('1700000000000_1700000060000_1_4242_AbCdEf_3_mx\\137host'), {
      id: '1700000000000_AbCdEf',
      attempts: 1,
      nextAttempt: 1700000060000,
    });
    assert.equal(queueFileIdentity('error.1700000000000_1_0_1_A_1_h'), null);
    assert.equal(queueFileIdentity('not-a-queue-file'), null);
  });

  it('keeps only the latest name of a message deferred between the two copy passes', () => {
    const before = 'mta-queue/100_100_0_7_AbCdEf_1_h';
    const afterDeferral = 'mta-queue/100_400_1_7_AbCdEf_2_h';
    const other = 'mta-queue/200_200_0_7_ZzZzZz_3_h';
    assert.deepEqual(supersededQueueFiles([before, other, afterDeferral, 'secret.key']), [before]);
    assert.deepEqual(supersededQueueFiles([afterDeferral, before]), [before]);
    assert.deepEqual(supersededQueueFiles([other]), []);
  });
});
