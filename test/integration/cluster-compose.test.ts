// compose.yaml's `cluster` profile (issue 23 item 5): PostgreSQL and two appliance nodes on it,
// beside the single SQLite appliance that `docker compose up` still runs alone. The structure
// is checked on the parsed file; when a Compose CLI is installed, it validates the file too.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/appliance';
import { skipLoudly } from '../helpers/missing-prerequisite';

const FILE = path.join(REPO_ROOT, 'compose.yaml');

interface Service {
  readonly profiles?: string[];
  readonly image?: string;
  readonly build?: unknown;
  readonly ports?: string[];
  readonly volumes?: string[];
  readonly environment?: Record<string, string>;
  readonly depends_on?: Record<string, { condition?: string }>;
  readonly healthcheck?: { test?: unknown };
}

interface ComposeFile {
  readonly services: Record<string, Service>;
  readonly volumes: Record<string, unknown>;
}

// yaml resolves the `<<` merge keys the file uses to share one node definition.
const compose = parse(fs.readFileSync(FILE, 'utf8'), { merge: true }) as ComposeFile;
const services = compose.services;
const inCluster = (name: string): boolean => services[name]?.profiles?.includes('cluster') ?? false;
const hostPort = (mapping: string): string => mapping.slice(0, mapping.lastIndexOf(':'));

/** The Compose CLI on this machine: the v2 plugin, else the v1 `docker-compose`, else none. */
function composeCli(): string[] | null {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0)
    return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  return null;
}

describe('compose.yaml', () => {
  it('runs the single SQLite appliance alone without a profile', () => {
    const always = Object.entries(services).filter(([, s]) => !s.profiles || s.profiles.length === 0);
    assert.deepEqual(
      always.map(([name]) => name),
      ['mailroom'],
    );
    assert.equal(services.mailroom?.environment?.DATABASE_URL, undefined);
  });

  it('has a cluster profile: PostgreSQL 15 with a volume and a health check', () => {
    const pg = services.postgres;
    assert.ok(pg && inCluster('postgres'));
    assert.equal(pg.image, 'postgres:15');
    assert.ok(pg.volumes?.some((v) => v.endsWith(':/var/lib/postgresql/data')));
    assert.ok(pg.volumes?.every((v) => v.split(':')[0]! in compose.volumes));
    assert.match(JSON.stringify(pg.healthcheck?.test), /pg_isready/);
    assert.equal(pg.ports, undefined, 'the database is reachable from the nodes only');
  });

  it('has two appliance nodes on that PostgreSQL with one SECRET_KEY and their own names, ports and volumes', () => {
    const nodes = Object.keys(services).filter((n) => inCluster(n) && n !== 'postgres');
    assert.deepEqual(nodes, ['mailroom-a', 'mailroom-b']);
    const [a, b] = nodes.map((n) => services[n]!) as [Service, Service];
    for (const node of [a, b]) {
      assert.equal(node.image, services.mailroom?.image, 'the same image as the single appliance');
      assert.match(
        node.environment?.DATABASE_URL ?? '',
        /^postgres:\/\/mailroom:[^@]*@postgres:5432\/mailroom$/,
      );
      assert.equal(node.environment?.SECRET_KEY, '${SECRET_KEY:-}');
      assert.equal(node.depends_on?.postgres?.condition, 'service_healthy');
      assert.ok(node.healthcheck?.test);
    }
    assert.deepEqual([a.environment?.NODE_NAME, b.environment?.NODE_NAME], ['mailroom-a', 'mailroom-b']);
    // Each node keeps its own MTA queue: a volume of its own at /data.
    const dataVolume = (s: Service): string | undefined => s.volumes?.find((v) => v.endsWith(':/data'));
    const volumes = [dataVolume(services.mailroom!), dataVolume(a), dataVolume(b)];
    assert.equal(new Set(volumes).size, 3);
    // No host port is published twice, so that `--profile cluster up` may start all three.
    const published = [services.mailroom!, a, b].flatMap((s) => (s.ports ?? []).map(hostPort));
    assert.equal(new Set(published).size, published.length, published.join(' '));
  });

  it('validates with the Compose CLI, with and without the profile', (t) => {
    const cli = composeCli();
    if (!cli) {
      // `.ci/run` installs Debian's docker-compose when no Compose CLI is present.
      const why = skipLoudly(
        'the Compose CLI validation',
        'no Compose CLI (docker compose, docker-compose)',
        ['Install one to run it:  apt-get install docker-compose'],
      );
      t.skip(`${why}: the structure checks above stand`);
      return;
    }
    const [cmd, ...pre] = cli as [string, ...string[]];
    const env = { ...process.env, POSTGRES_PASSWORD: 'x', SECRET_KEY: 'k'.repeat(40) };
    const run = (...args: string[]): string =>
      execFileSync(cmd, [...pre, '-f', FILE, ...args], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    run('config', '-q');
    run('--profile', 'cluster', 'config', '-q');
    assert.match(
      run('--profile', 'cluster', 'config'),
      /DATABASE_URL: postgres:\/\/mailroom:x@postgres:5432/,
    );
  });
});
