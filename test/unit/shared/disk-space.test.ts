import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  MIN_FREE_INODES,
  createStorageGuard,
  shortageOf,
  storagePaths,
  volumeSpace,
} from '../../../src/shared/disk-space';

const MiB = 1024 * 1024;
const volume = (freeBytes: number, freeInodes?: number) => ({
  path: '/data',
  freeBytes,
  totalBytes: 100 * MiB,
  freeInodes,
});

describe('shortageOf', () => {
  it('has room above the floor, including the bytes asked for', () => {
    assert.equal(shortageOf([volume(20 * MiB)], 8 * MiB), undefined);
    assert.equal(shortageOf([volume(20 * MiB)], 8 * MiB, 12 * MiB), undefined);
  });

  it('says which volume is under the floor, and by how much', () => {
    assert.match(
      shortageOf([volume(7 * MiB)], 8 * MiB) ?? '',
      /^\/data: 7\.0 MiB free, under the floor of 8\.0 MiB/,
    );
    assert.match(shortageOf([volume(20 * MiB)], 8 * MiB, 13 * MiB) ?? '', /13\.0 MiB more requested/);
  });

  it('counts a volume out of inodes as full, and ignores file systems without an inode table', () => {
    assert.match(shortageOf([volume(50 * MiB, MIN_FREE_INODES - 1)], MiB) ?? '', /inodes free/);
    assert.equal(shortageOf([volume(50 * MiB, undefined)], MiB), undefined);
  });

  it('takes the worst of several volumes', () => {
    const queue = { ...volume(MiB), path: '/queue' };
    assert.match(shortageOf([volume(50 * MiB), queue], 8 * MiB) ?? '', /^\/queue:/);
  });
});

describe('storage guard', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-disk-space-'));

  it('measures a missing directory at its nearest existing parent', async () => {
    const v = await volumeSpace(path.join(dir, 'not', 'yet'));
    assert.equal(v.path, dir);
    assert.ok(v.freeBytes > 0 && v.totalBytes >= v.freeBytes);
  });

  it('watches DATA_DIR, the MTA queue and the database directory', () => {
    assert.deepEqual(storagePaths({ dataDir: '/d', databaseUrl: 'sqlite:/db/mail.db' }), [
      '/d',
      '/d/mta-queue',
      '/db',
    ]);
    assert.deepEqual(storagePaths({ dataDir: '/d', databaseUrl: '/other/mail.db' }), [
      '/d',
      '/d/mta-queue',
      '/other',
    ]);
    // A PostgreSQL database lives on the server's disk, not one of ours (issue 23).
    assert.deepEqual(storagePaths({ dataDir: '/d', databaseUrl: 'postgres://u:p@db:5432/mail' }), [
      '/d',
      '/d/mta-queue',
    ]);
  });

  it('refuses under the floor of the real volume, and never with the floor off', async () => {
    const free = (await volumeSpace(dir)).freeBytes;
    assert.equal(
      await createStorageGuard({ paths: [dir], floorBytes: 0 }).shortage({ bytes: 2 * free }),
      undefined,
    );
    assert.equal(await createStorageGuard({ paths: [dir], floorBytes: MiB }).shortage(), undefined);
    const over = createStorageGuard({ paths: [dir], floorBytes: free + 1024 * MiB });
    assert.match((await over.shortage()) ?? '', /under the floor/);
    // A smaller share of the floor (the injection hand-off) still has room.
    assert.equal(await over.shortage({ fraction: MiB / (free + 1024 * MiB) }), undefined);
  });

  it('counts what it admitted until the next reading, so a burst cannot overshoot the floor', async () => {
    const free = (await volumeSpace(dir)).freeBytes;
    const guard = createStorageGuard({ paths: [dir], floorBytes: MiB, maxAgeMs: 60_000 });
    const third = Math.floor((free - 2 * MiB) / 3);
    assert.equal(await guard.shortage({ bytes: third }), undefined);
    assert.equal(await guard.shortage({ bytes: third }), undefined);
    assert.equal(await guard.shortage({ bytes: third }), undefined);
    assert.match((await guard.shortage({ bytes: third })) ?? '', /under the floor/);
    // A refused request is not counted.
    assert.match((await guard.shortage({ bytes: third })) ?? '', /under the floor/);
  });

  it('treats an unreadable volume as full', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const guard = createStorageGuard({ paths: [path.join(file, 'below-a-file')], floorBytes: MiB });
    assert.match((await guard.shortage()) ?? '', /cannot read free space/);
  });
});
