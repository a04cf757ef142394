// Preloaded into the api process by the api-accept profile run (`node --require
// dist/bench/sql-counter.js`): counts better-sqlite3 prepares and times every statement
// execution by SQL text, and writes the totals to $BENCH_SQL_COUNTER_DIR/sql-<pid>-<thread>.json
// every second. Worker threads load it too (they inherit the process's --require), each
// with its own copy of the driver and its own file: `<thread>` is 0 for the main thread,
// the worker's threadId otherwise (the api's writer thread). Nothing in src/ is changed;
// this only wraps the driver's methods.
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import Database from 'better-sqlite3';

interface Agg {
  count: number;
  ms: number;
  /** The slowest execution, and how many took over 5 ms (a commit that ran a WAL checkpoint). */
  maxMs: number;
  over5: number;
}

const dir = process.env.BENCH_SQL_COUNTER_DIR;
if (dir) {
  const stats = { prepares: 0, prepareMs: 0, exec: {} as Record<string, Agg> };
  const proto = Database.prototype as unknown as {
    prepare: (this: Database.Database, source: string) => Database.Statement;
  };
  const prepare = proto.prepare;
  proto.prepare = function (this: Database.Database, source: string): Database.Statement {
    const t0 = performance.now();
    const stmt = prepare.call(this, source);
    stats.prepares++;
    stats.prepareMs += performance.now() - t0;
    const key = source.replace(/\s+/g, ' ').slice(0, 90);
    for (const m of ['run', 'all', 'get', 'iterate'] as const) {
      const methods = stmt as unknown as Record<string, (...a: unknown[]) => unknown>;
      const orig = methods[m] as (...a: unknown[]) => unknown;
      methods[m] = function (this: unknown, ...args: unknown[]): unknown {
        const s = performance.now();
        try {
          return orig.apply(this, args);
        } finally {
          const a = (stats.exec[key] ??= { count: 0, ms: 0, maxMs: 0, over5: 0 });
          const ms = performance.now() - s;
          a.count++;
          a.ms += ms;
          if (ms > a.maxMs) a.maxMs = ms;
          if (ms > 5) a.over5++;
        }
      };
    }
    return stmt;
  };
  const file = path.join(dir, `sql-${process.pid}-${threadId}.json`);
  setInterval(() => fs.writeFileSync(file, JSON.stringify(stats)), 1000).unref();
}
