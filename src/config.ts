import { isIP } from 'node:net';
import { z } from 'zod';

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const onOffText = z
  .enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'], { error: 'must be on or off' })
  .transform((v) => v === 'on' || v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

// Passwords nobody should run an identity provider with; production refuses them.
const WELL_KNOWN_PASSWORDS = new Set(['admin', 'password', 'changeme', 'change-me', 'secret', 'sesame', '12345678', 'admin123', 'password1']);

// Empty means unset, as for PORT: coercing '' would give 0, which turns a limit off.
const limitCount = () => optionalText.pipe(z.coerce.number<string | undefined>({ error: 'must be a whole number (0 turns the limit off)' }).int('must be a whole number').min(0, 'must be 0 or more (0 turns the limit off)').optional());
const windowSeconds = () => optionalText.pipe(z.coerce.number<string | undefined>({ error: 'must be a number of seconds' }).int('must be a whole number of seconds').min(1, 'must be at least 1 second').optional());

/**
 * Sign-in limits count failures only, so people and benchmarks signing in correctly are never held back.
 * Per account+IP is the tightest (one person mistyping from one place); per account catches guessing
 * spread over many addresses; per IP is loose because a whole office can share one address.
 * Token limits count what signals abuse, never a token issued: failed client authentications per address
 * (a legitimate back end has its secret; 20 a minute is a misconfiguration or a guess), and refused requests
 * (invalid_grant and the like) per address and, for an authenticated client, per client: a busy back end
 * exchanging 60 codes and 60 refresh tokens a second sees a few of those a minute (a code used twice, a
 * refresh token raced), not 300. The request and issuance ceilings are off unless an operator sets them.
 * Account lookups answer whether an account exists: a person adding members needs a few, enumeration thousands.
 */
export const rateLimitDefaults = {
  signIn: { perAccount: 10, perIp: 100, perAccountIp: 5, windowSeconds: 900 },
  token: { failedAuthPerIp: 20, failuresPerIp: 300, invalidGrantsPerClient: 300, failureWindowSeconds: 60, perClient: 0, perIp: 0, windowSeconds: 60 },
  lookup: { perSession: 60, perIp: 120, windowSeconds: 900 },
} as const;

// Named ranges that Fastify's proxy-addr understands.
const TRUST_PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * How long a stopping instance keeps serving with /health/ready at 503: longer than a load balancer
 * takes to notice (two failed probes 5 s apart, the usual settings), short enough for a rolling deploy.
 */
export const SHUTDOWN_GRACE_DEFAULT_SECONDS = 10;

/** How long a console session's last proof of the person (its sign-in, a re-authentication) lets it change the person's credentials: long enough to finish a change, short enough that a forgotten open console is not enough. */
export const REAUTH_WINDOW_DEFAULT_SECONDS = 600;

/** How often an instance re-reads the published signing keys, so a rotation made elsewhere (the CLI, another instance) is served within it. */
export const SIGNING_KEY_REFRESH_DEFAULT_SECONDS = 30;

/** `host:port` as ASSISTANT_METADATA_ALLOWED_HOSTS lists it, lower-cased (an IPv6 address in brackets); undefined when it is not one. */
export function hostAndPort(entry: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?):(\d{1,5})$/i.exec(entry);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535) return undefined;
  return `${match[1]!.toLowerCase()}:${Number(match[2])}`;
}

function isTrustProxyValue(value: string): boolean {
  if (/^\d{1,2}$/.test(value)) return true;
  return value.split(',').every((entry) => {
    if (TRUST_PROXY_RANGE_NAMES.has(entry.trim())) return true;
    const [address = '', bits, ...rest] = entry.trim().split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return false;
    if (bits === undefined) return true;
    return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  });
}

const environmentSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  // An empty PORT means unset: coercing '' would give 0, a random port.
  PORT: optionalText.pipe(z.coerce.number<string | undefined>({ error: 'must be a port number' }).int('must be a port number').min(0).max(65535).default(3000)),
  HOST: optionalText,
  OIDC_ISSUER: optionalText.pipe(z.url({ error: 'must be an absolute URL such as https://id.example.com' }).optional()),
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/sesame.db')
    .refine((v) => /^(postgres|postgresql):\/\//.test(v) || v.startsWith('sqlite:'), 'must be postgres://... or sqlite:PATH'),
  REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional()),
  OIDC_AGENT_API_ENABLED: optionalText.pipe(booleanText.optional()),
  SESAME_MCP_ENABLED: optionalText.pipe(booleanText.optional()),
  OIDC_KEY_ENCRYPTION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  OIDC_COOKIE_KEYS: optionalText.transform((v) => v?.split(',').map((k) => k.trim()).filter(Boolean)).pipe(
    z.array(z.string().min(32, 'each key must be at least 32 characters')).min(1).optional(),
  ),
  OIDC_BOOTSTRAP_ADMIN_ACCOUNT: optionalText,
  OIDC_BOOTSTRAP_ADMIN_PASSWORD: optionalText,
  OIDC_CLIENTS_CONFIG_PATH: optionalText,
  TRUST_PROXY: optionalText.refine((v) => v === undefined || isTrustProxyValue(v), 'must be a hop count (e.g. 1) or comma-separated addresses, CIDRs or loopback/linklocal/uniquelocal (e.g. loopback,10.0.0.0/8)'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  METRICS_TOKEN: optionalText,
  // Rate limits: values and reasons in rateLimitDefaults; 0 turns that one limit off.
  SIGNIN_MAX_FAILURES_PER_ACCOUNT: limitCount(),
  SIGNIN_MAX_FAILURES_PER_IP: limitCount(),
  SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: limitCount(),
  SIGNIN_FAILURE_WINDOW_SECONDS: windowSeconds(),
  TOKEN_MAX_FAILED_AUTH_PER_IP: limitCount(),
  TOKEN_MAX_FAILURES_PER_IP: limitCount(),
  TOKEN_MAX_INVALID_GRANTS_PER_CLIENT: limitCount(),
  TOKEN_FAILURE_WINDOW_SECONDS: windowSeconds(),
  TOKEN_RATE_PER_CLIENT: limitCount(),
  TOKEN_RATE_PER_IP: limitCount(),
  TOKEN_RATE_WINDOW_SECONDS: windowSeconds(),
  LOOKUP_RATE_PER_SESSION: limitCount(),
  LOOKUP_RATE_PER_IP: limitCount(),
  LOOKUP_RATE_WINDOW_SECONDS: windowSeconds(),
  SIGNING_KEY_REFRESH_SECONDS: windowSeconds(),
  REAUTH_WINDOW_SECONDS: windowSeconds(),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// (STARTTLS when the server offers it) or smtps:// (TLS) URL, e.g. smtp://user:password@mail.example.com:587' }).optional()),
  MAIL_FROM: optionalText.refine((v) => v === undefined || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(v), 'must be an address, e.g. sesame@example.com or "Sesame <sesame@example.com>"'),
  ASSISTANT_METADATA_DOCUMENTS: optionalText.pipe(onOffText.optional()),
  ASSISTANT_METADATA_ALLOWED_HOSTS: optionalText.refine((v) => v === undefined || v.split(',').every((entry) => hostAndPort(entry.trim()) !== undefined), 'must be comma-separated host:port pairs, e.g. localhost:8443,[::1]:8443,docs.internal:443'),
  SHUTDOWN_GRACE_SECONDS: optionalText.pipe(z.coerce.number<string | undefined>({ error: 'must be a number of seconds' }).int('must be a whole number of seconds').min(0, 'must be 0 or more').max(600, 'must be at most 600 seconds').optional()),
});

export type Config = ReturnType<typeof buildConfig>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Sesame cannot start; fix these environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

function buildConfig(env: z.infer<typeof environmentSchema>) {
  const production = env.NODE_ENV === 'production';
  const port = env.PORT;
  return {
    env: env.NODE_ENV,
    production,
    port,
    host: env.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    issuer: (env.OIDC_ISSUER ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    agentApiEnabled: env.OIDC_AGENT_API_ENABLED ?? !production,
    /** Whoever enabled the Agent API for assistants meant MCP assistants too, unless told otherwise. */
    mcpEnabled: env.SESAME_MCP_ENABLED ?? env.OIDC_AGENT_API_ENABLED ?? !production,
    /** Unset outside production: generated on first start and kept in the database. */
    keyEncryptionSecret: env.OIDC_KEY_ENCRYPTION_SECRET,
    /** Unset outside production: generated on first start and kept in the database. */
    cookieKeys: env.OIDC_COOKIE_KEYS,
    bootstrapAdmin: { account: env.OIDC_BOOTSTRAP_ADMIN_ACCOUNT ?? 'admin', password: env.OIDC_BOOTSTRAP_ADMIN_PASSWORD },
    clientsConfigPath: env.OIDC_CLIENTS_CONFIG_PATH,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    signingKeyRefreshSeconds: env.SIGNING_KEY_REFRESH_SECONDS ?? SIGNING_KEY_REFRESH_DEFAULT_SECONDS,
    /** How long a console sign-in or re-authentication lets the person change their credentials without proving themselves again. */
    reauthWindowSeconds: env.REAUTH_WINDOW_SECONDS ?? REAUTH_WINDOW_DEFAULT_SECONDS,
    /** Unset SMTP_URL: Sesame sends no mail, and invitations, resets and verification say so. */
    mail: env.SMTP_URL === undefined ? undefined : { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM ?? defaultMailFrom(env.OIDC_ISSUER ?? `http://localhost:${port}`) },
    /**
     * Client ID metadata documents (an assistant's client_id is the https URL of its metadata): on by default,
     * since that is how MCP clients unknown to Sesame connect. `allowedHosts` may be fetched although they
     * resolve to private or loopback addresses (tests, private networks).
     */
    assistantMetadata: {
      enabled: env.ASSISTANT_METADATA_DOCUMENTS ?? true,
      allowedHosts: (env.ASSISTANT_METADATA_ALLOWED_HOSTS ?? '').split(',').map((entry) => hostAndPort(entry.trim())).filter((entry): entry is string => entry !== undefined),
    },
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS ?? SHUTDOWN_GRACE_DEFAULT_SECONDS,
    rateLimits: {
      signIn: {
        perAccount: env.SIGNIN_MAX_FAILURES_PER_ACCOUNT ?? rateLimitDefaults.signIn.perAccount,
        perIp: env.SIGNIN_MAX_FAILURES_PER_IP ?? rateLimitDefaults.signIn.perIp,
        perAccountIp: env.SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP ?? rateLimitDefaults.signIn.perAccountIp,
        windowSeconds: env.SIGNIN_FAILURE_WINDOW_SECONDS ?? rateLimitDefaults.signIn.windowSeconds,
      },
      token: {
        failedAuthPerIp: env.TOKEN_MAX_FAILED_AUTH_PER_IP ?? rateLimitDefaults.token.failedAuthPerIp,
        failuresPerIp: env.TOKEN_MAX_FAILURES_PER_IP ?? rateLimitDefaults.token.failuresPerIp,
        invalidGrantsPerClient: env.TOKEN_MAX_INVALID_GRANTS_PER_CLIENT ?? rateLimitDefaults.token.invalidGrantsPerClient,
        failureWindowSeconds: env.TOKEN_FAILURE_WINDOW_SECONDS ?? rateLimitDefaults.token.failureWindowSeconds,
        perClient: env.TOKEN_RATE_PER_CLIENT ?? rateLimitDefaults.token.perClient,
        perIp: env.TOKEN_RATE_PER_IP ?? rateLimitDefaults.token.perIp,
        windowSeconds: env.TOKEN_RATE_WINDOW_SECONDS ?? rateLimitDefaults.token.windowSeconds,
      },
      lookup: {
        perSession: env.LOOKUP_RATE_PER_SESSION ?? rateLimitDefaults.lookup.perSession,
        perIp: env.LOOKUP_RATE_PER_IP ?? rateLimitDefaults.lookup.perIp,
        windowSeconds: env.LOOKUP_RATE_WINDOW_SECONDS ?? rateLimitDefaults.lookup.windowSeconds,
      },
    },
  };
}

/** Without MAIL_FROM, mail comes from no-reply at the issuer's host name. */
function defaultMailFrom(issuer: string): string {
  return `Sesame <no-reply@${new URL(issuer).hostname.replace(/^\[|\]$/g, '')}>`;
}

function productionProblems(config: Config): string[] {
  const problems: string[] = [];
  if (!config.issuer.startsWith('https://')) problems.push('OIDC_ISSUER: must be an https:// URL in production');
  if (!config.keyEncryptionSecret) problems.push('OIDC_KEY_ENCRYPTION_SECRET: required in production (at least 32 random characters)');
  if (!config.cookieKeys) problems.push('OIDC_COOKIE_KEYS: required in production (comma-separated, each at least 32 random characters)');
  const password = config.bootstrapAdmin.password;
  if (password !== undefined && (password.length < 12 || WELL_KNOWN_PASSWORDS.has(password.toLowerCase()))) {
    problems.push('OIDC_BOOTSTRAP_ADMIN_PASSWORD: a default or short password is refused in production (use at least 12 characters)');
  }
  return problems;
}

/** Reads and validates the environment once, at start; every problem is reported with its variable's name. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'environment')}: ${issue.message}`));
  }
  const config = buildConfig(parsed.data);
  if (config.production) {
    const problems = productionProblems(config);
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return config;
}
