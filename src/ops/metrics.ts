import { getHeapStatistics } from 'node:v8';
import { createMetricsRegistry } from './metrics-registry.ts';

export type SignInSurface = 'login_page' | 'agent' | 'management';
/** `failure`: wrong password or unknown account; `error`: the check itself failed (database down). */
export type SignInOutcome = 'success' | 'failure' | 'rate_limited' | 'error';
export type RateLimitedOperation = 'sign_in' | 'token' | 'user_lookup';
export type RateLimitDimension = 'account' | 'ip' | 'account_ip' | 'client' | 'session';

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

// Seconds; from a 5 ms cache hit to a 10 s stall.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Sesame's metrics, one set per app. Other modules record through the functions here; every
 * label is a route pattern, a status code or a name from the closed unions above.
 */
export function createMetrics() {
  const registry = createMetricsRegistry();
  const requests = registry.counter('sesame_http_requests_total', 'HTTP requests answered, by method, route pattern and status.', ['method', 'route', 'status']);
  const latency = registry.histogram(
    'sesame_http_request_duration_seconds',
    'Time from receiving a request to finishing its response, by method, route pattern and status.',
    ['method', 'route', 'status'],
    LATENCY_BUCKETS,
  );
  const signIns = registry.counter('sesame_sign_in_attempts_total', 'Password sign-in attempts, by surface and outcome.', ['surface', 'outcome']);
  const refusals = registry.counter('sesame_rate_limit_refusals_total', 'Requests refused by a rate limit, by operation and the limit that refused.', ['operation', 'limit']);
  const tokens = registry.counter('sesame_tokens_issued_total', 'Token endpoint grants that issued tokens, by grant type.', ['grant_type']);

  const startedAt = Date.now() / 1000;
  registry.gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch, in seconds.', () => startedAt);
  registry.gauge('process_resident_memory_bytes', 'Resident memory size, in bytes.', () => process.memoryUsage.rss());
  registry.gauge('nodejs_heap_used_bytes', 'V8 heap in use, in bytes.', () => process.memoryUsage().heapUsed);
  // Set by --max-old-space-size and --max-semi-space-size (npm start sets both): the heap used must stay below it.
  const heapSizeLimit = getHeapStatistics().heap_size_limit;
  registry.gauge('nodejs_heap_size_limit_bytes', 'The most V8 heap the process may use, in bytes.', () => heapSizeLimit);
  registry.gauge('process_cpu_seconds_total', 'User and system CPU time spent, in seconds.', () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  }, 'counter');

  return {
    recordRequest(method: string, route: string, statusCode: number, seconds: number): void {
      const labels = { method, route, status: String(statusCode) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    recordSignIn(surface: SignInSurface, outcome: SignInOutcome): void {
      signIns.inc({ surface, outcome });
    },
    recordRateLimitRefusal(operation: RateLimitedOperation, limit: RateLimitDimension): void {
      refusals.inc({ operation, limit });
    },
    /** Call when the token endpoint issued tokens; unknown grant types count as `other`. */
    recordTokenIssued(grantType: string): void {
      tokens.inc({ grant_type: GRANT_TYPES.has(grantType) ? grantType : 'other' });
    },
    signInCount: (surface: SignInSurface, outcome: SignInOutcome) => signIns.get({ surface, outcome }),
    refusalCount: (operation: RateLimitedOperation, limit: RateLimitDimension) => refusals.get({ operation, limit }),
    render: () => registry.render(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
