import type Koa from 'koa';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { nodeRoles } from '../config';
import { oldestQueuedAgeMs, queueDepths } from '../jobs/queue-stats';
import { QUEUES } from '../jobs/queues';
import type { DestinationGaugeValues } from '../mta/destination-metrics';
import { gaugeValues, readSnapshot } from '../mta/destination-metrics';
import { listNodes } from '../modules/nodes/nodes.repository';
import { STATUSES } from '../modules/stats/stats-overview';
import { emailsCreatedSince } from '../modules/stats/stats.repository';
import { countFailedAttemptsSince } from '../modules/webhooks/webhooks.repository';
import type { ApiDeps, AppState } from '../http/context';
import { RouteGroup } from '../http/route';

const HOUR_MS = 3_600_000;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface ApiMetrics {
  readonly registry: Registry;
  /** Times every request into `mail_http_request_duration_seconds`; mount it outside the error middleware. */
  readonly middleware: Koa.Middleware<AppState>;
  /** `GET /metrics`, behind X-Internal-Token. */
  readonly routes: RouteGroup;
}

/** A layer @koa/router leaves in `ctx.matched` (structural: its Layer type is not exported as such). */
interface MatchedLayer {
  readonly path: unknown;
  readonly methods: readonly string[];
}

/**
 * The route template that served the request (`/v1/emails/:id`), never the raw path:
 * the label's values stay bounded whatever clients request. Taken from the router's
 * matched layers, so it is right even when authentication threw before the handler.
 */
export function routeLabel(ctx: Koa.Context): string {
  const matched = (ctx as { matched?: readonly MatchedLayer[] }).matched ?? [];
  const route = matched.findLast((layer) => layer.methods.includes(ctx.method));
  return route && typeof route.path === 'string' ? route.path : 'unmatched';
}

/**
 * The api process's Prometheus registry (spec: Health and operations). Gauges read
 * the database when scraped, so a scrape sees the whole appliance (every process
 * writes the same database); the histogram and process metrics are this process's,
 * labelled with its node (NODE_NAME, issue 23): in a cluster each api node is scraped.
 */
export function createMetrics(deps: Pick<ApiDeps, 'db' | 'config' | 'authenticator'>): ApiMetrics {
  const { db } = deps;
  const node = deps.config.nodeName;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, labels: { node } });

  const nodeInfo = new Gauge({
    name: 'mailroom_node_info',
    help: 'Always 1: the node this api runs on (NODE_NAME) and the processes it runs.',
    labelNames: ['node', 'roles'],
    registers: [registry],
  });
  nodeInfo.set({ node, roles: nodeRoles().join(',') }, 1);
  const heartbeatAge = new Gauge({
    name: 'mail_node_heartbeat_age_seconds',
    help: 'Seconds since each node of the cluster last heartbeated; past NODE_DEAD_AFTER_S its undelivered mail is handed back.',
    labelNames: ['node'],
    registers: [registry],
    async collect() {
      const now = Date.now();
      heartbeatAge.reset();
      for (const n of await listNodes(db)) {
        heartbeatAge.set({ node: n.name }, Math.max(0, (now - Date.parse(n.last_seen_at)) / 1000));
      }
    },
  });

  const depth = new Gauge({
    name: 'mail_queue_depth',
    help: 'Jobs waiting or running per queue (the spec names email-send, email-send:failed, bounce-processing, webhook-delivery).',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const depths = await queueDepths(db);
      for (const [queue, n] of Object.entries(depths)) depth.set({ queue }, n);
    },
  });
  const oldest = new Gauge({
    name: 'mail_queue_oldest_age_seconds',
    help: 'How long the longest-waiting due job of each queue has waited since it became due (0 when none).',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const now = new Date();
      const ages = await Promise.all(QUEUES.map((q) => oldestQueuedAgeMs(db, q, now)));
      QUEUES.forEach((queue, i) => oldest.set({ queue }, (ages[i] ?? 0) / 1000));
    },
  });
  const lastHour = new Gauge({
    name: 'mail_emails_last_hour',
    help: 'Live messages created in the last hour (test mail left out), all accounts, by their current status.',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const rows = await emailsCreatedSince(db, new Date(Date.now() - HOUR_MS).toISOString());
      const counts = new Map(rows.map((r) => [r.status, r.count]));
      for (const status of STATUSES) lastHour.set({ status }, counts.get(status) ?? 0);
    },
  });
  const webhookFailures = new Gauge({
    name: 'mail_webhook_failures_last_hour',
    help: 'Webhook delivery attempts that failed in the last hour, all endpoints.',
    registers: [registry],
    async collect() {
      webhookFailures.set(await countFailedAttemptsSince(db, new Date(Date.now() - HOUR_MS).toISOString()));
    },
  });
  const uptime = new Gauge({
    name: 'mail_api_uptime_seconds',
    help: 'Seconds since the api process started.',
    labelNames: ['node'],
    registers: [registry],
    collect() {
      uptime.set({ node }, process.uptime());
    },
  });
  // Per-destination pacing (issue 22 item 2): the numbers the mta counted, from its snapshot in
  // DATA_DIR. prom-client collects the gauges concurrently: the four share one read while it runs.
  let read: Promise<DestinationGaugeValues[]> | undefined;
  const destinationValues = (): Promise<DestinationGaugeValues[]> => {
    if (read === undefined) {
      const now = Date.now();
      const current = readSnapshot(deps.config.dataDir).then((s) =>
        s === undefined ? [] : gaugeValues(s, now),
      );
      read = current;
      void current.finally(() => {
        if (read === current) read = undefined;
      });
    }
    return read;
  };
  const destinationGauge = (name: string, help: string, pick: (v: DestinationGaugeValues) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['destination'],
      registers: [registry],
      async collect() {
        const values = await destinationValues();
        this.reset();
        for (const v of values) this.set({ destination: v.destination }, pick(v));
      },
    });
  destinationGauge(
    'mail_destination_in_flight',
    'Deliveries in flight per destination (registrable domain of the MX host).',
    (v) => v.inFlight,
  );
  destinationGauge(
    'mail_destination_backed_off',
    '1 while a destination is backed off after throttling us, else 0.',
    (v) => v.backedOff,
  );
  destinationGauge(
    'mail_destination_backoff_remaining_seconds',
    'Seconds until a backed-off destination is tried again (0 when not backed off).',
    (v) => v.backoffRemainingSeconds,
  );
  destinationGauge(
    'mail_destination_deferred_last_hour',
    'Deferrals per destination in the last hour (remote 4xx, unreachable MX, and each hold of a message at a backed-off or capped destination, once).',
    (v) => v.deferredLastHour,
  );
  const duration = new Histogram({
    name: 'mail_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status class.',
    labelNames: ['node', 'method', 'route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const middleware: Koa.Middleware<AppState> = async (ctx, next) => {
    const end = duration.startTimer();
    try {
      await next();
    } finally {
      end({
        node,
        method: METHODS.has(ctx.method) ? ctx.method : 'OTHER',
        route: routeLabel(ctx),
        status_class: `${Math.floor(ctx.status / 100)}xx`,
      });
    }
  };

  const routes = new RouteGroup(deps, '/metrics', 'Operations');
  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'internal',
      operationId: 'metrics',
      summary: 'Prometheus text exposition',
      ok: { status: 200, description: 'Metrics', contentType: 'text/plain' },
    },
    async (ctx) => {
      const text = await registry.metrics();
      ctx.type = registry.contentType;
      ctx.body = text;
    },
  );

  return { registry, middleware, routes };
}
