import { getHeapStatistics } from 'node:v8';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import packageJson from '../../package.json' with { type: 'json' };

export type SignInSurface = 'login_page' | 'agent' | 'management';
/** `failure`: wrong password or unknown account; `error`: the check itself failed (database down). */
export type SignInOutcome = 'success' | 'failure' | 'rate_limited' | 'error';
export type RateLimitedOperation = 'sign_in' | 'token' | 'user_lookup';
export type RateLimitDimension = 'account' | 'ip' | 'account_ip' | 'client' | 'session';

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

// Seconds; from a 5 ms cache hit to a 10 s stall.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A scrape reads the outbox at most this often; the design bounds its age at 15 s. */
const OUTBOX_READ_INTERVAL_MS = 5_000;

/**
 * Sesame's metrics, one registry per app: prom-client's standard Node.js runtime metrics under
 * their usual names, and Sesame's own. Other modules record through the functions here; every
 * label is a route pattern, a status code or a name from the closed unions above.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({ name: 'sesame_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'sesame_http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const signIns = new Counter({ name: 'sesame_sign_in_attempts_total', help: 'Password sign-in attempts, by surface and outcome.', labelNames: ['surface', 'outcome'], registers: [registry] });
  const refusals = new Counter({ name: 'sesame_rate_limit_refusals_total', help: 'Requests refused by a rate limit, by operation and the limit that refused.', labelNames: ['operation', 'limit'], registers: [registry] });
  const tokens = new Counter({ name: 'sesame_tokens_issued_total', help: 'Token endpoint grants that issued tokens, by grant type.', labelNames: ['grant_type'], registers: [registry] });
  // Counts kept beside the counters, so tests and limits read them without an async registry read.
  const signInCounts = new Map<string, number>();
  const refusalCounts = new Map<string, number>();
  const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

  new Gauge({ name: 'sesame_build_info', help: 'Always 1; the labels name the running build.', labelNames: ['version', 'node_version'], registers: [registry] }).set({ version: packageJson.version, node_version: process.version }, 1);
  // Sesame's names from before prom-client, kept for dashboards that use them.
  new Gauge({ name: 'nodejs_heap_used_bytes', help: 'V8 heap in use, in bytes (nodejs_heap_size_used_bytes is the standard name).', registers: [registry], collect() { this.set(process.memoryUsage().heapUsed); } });
  // Set by --max-old-space-size and --max-semi-space-size (npm start sets both): the heap used must stay below it.
  const heapSizeLimit = getHeapStatistics().heap_size_limit;
  new Gauge({ name: 'nodejs_heap_size_limit_bytes', help: 'The most V8 heap the process may use, in bytes.', registers: [registry] }).set(heapSizeLimit);

  let countOutbox: (() => Promise<number>) | undefined;
  let outboxRead: { at: number; value: number } | undefined;
  new Gauge({
    name: 'sesame_mail_outbox_pending',
    help: 'Mail waiting in the outbox, across every instance (aggregate with max, not sum).',
    registers: [registry],
    async collect() {
      if (!countOutbox) return;
      if (!outboxRead || Date.now() - outboxRead.at >= OUTBOX_READ_INTERVAL_MS) outboxRead = { at: Date.now(), value: await countOutbox() };
      this.set(outboxRead.value);
    },
  });

  let readCacheInUse: (() => boolean) | undefined;
  new Gauge({
    name: 'sesame_read_cache_in_use',
    help: '1 while clients and people are read from memory; 0 while every read goes to the database (the PostgreSQL notification connection is down).',
    registers: [registry],
    collect() {
      if (readCacheInUse) this.set(readCacheInUse() ? 1 : 0);
    },
  });

  return {
    recordRequest(method: string, route: string, statusCode: number, seconds: number): void {
      const labels = { method, route, status: String(statusCode) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    recordSignIn(surface: SignInSurface, outcome: SignInOutcome): void {
      signIns.inc({ surface, outcome });
      bump(signInCounts, `${surface} ${outcome}`);
    },
    recordRateLimitRefusal(operation: RateLimitedOperation, limit: RateLimitDimension): void {
      refusals.inc({ operation, limit });
      bump(refusalCounts, `${operation} ${limit}`);
    },
    /** Call when the token endpoint issued tokens; unknown grant types count as `other`. */
    recordTokenIssued(grantType: string): void {
      tokens.inc({ grant_type: GRANT_TYPES.has(grantType) ? grantType : 'other' });
    },
    /** Where `sesame_mail_outbox_pending` reads the outbox (the services exist after the metrics). */
    countOutboxWith(count: () => Promise<number>): void {
      countOutbox = count;
    },
    /** Where `sesame_read_cache_in_use` asks (src/storage/change-feed.ts). */
    reportReadCacheWith(inUse: () => boolean): void {
      readCacheInUse = inUse;
    },
    signInCount: (surface: SignInSurface, outcome: SignInOutcome) => signInCounts.get(`${surface} ${outcome}`) ?? 0,
    refusalCount: (operation: RateLimitedOperation, limit: RateLimitDimension) => refusalCounts.get(`${operation} ${limit}`) ?? 0,
    contentType: registry.contentType,
    render: (): Promise<string> => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
