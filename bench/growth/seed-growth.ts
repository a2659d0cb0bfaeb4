import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { hashPassword } from '../../src/services/sign-in/passwords.ts';
import type { Engine } from '../../src/storage/database.ts';
import type { GrowthSizes } from './growth-sizes.ts';

/** Shares of the stored artifacts by kind, as a busy provider accumulates them. */
const ARTIFACT_SHARES: [kind: string, share: number][] = [
  ['AccessToken', 0.4],
  ['RefreshToken', 0.2],
  ['Grant', 0.15],
  ['Session', 0.1],
  ['AuthorizationCode', 0.05],
  ['Interaction', 0.05],
  ['RememberedConsent', 0.05],
];

interface Dialect {
  /** `FROM` clause of a row source `seq(i)` numbering 1..count. */
  rows(count: number): { prefix: string; from: string };
  /** 32 random hex characters per row. */
  randomHex: string;
  run(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

function sqliteDialect(path: string): Dialect {
  const database = new DatabaseSync(path);
  database.exec('PRAGMA busy_timeout = 30000');
  return {
    rows: (count) => ({ prefix: `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${count})`, from: 'seq' }),
    randomHex: 'lower(hex(randomblob(16)))',
    async run(sql, params = []) {
      // The statements number their parameters ($1) for PostgreSQL; node:sqlite binds positional ones (?).
      database.prepare(sql.replace(/\$\d+/g, '?')).run(...(params as (string | number)[]));
    },
    async close() {
      // Fold the seed's write-ahead log into the database now, or the server's next write would, inside a measurement.
      database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      database.close();
    },
  };
}

async function postgresDialect(url: string): Promise<Dialect> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    rows: (count) => ({ prefix: '', from: `generate_series(1, ${count}) AS seq(i)` }),
    randomHex: 'md5(random()::text)',
    async run(sql, params = []) {
      await client.query(sql, params);
    },
    async close() {
      await client.end();
    },
  };
}

/**
 * Adds users, projects with members, clients with their revision and secret, console/agent
 * sessions, audit entries and protocol artifacts with bulk INSERT ... SELECT statements (one
 * argon2id hash shared by every seeded user). The rows look like real ones in size and shape;
 * none of them is used by the scenarios, which keep their own fixtures.
 */
export async function seedGrowth(engine: Engine, databaseUrl: string, sizes: GrowthSizes): Promise<void> {
  const d = engine === 'sqlite' ? sqliteDialect(databaseUrl.slice('sqlite:'.length)) : await postgresDialect(databaseUrl);
  const now = Date.now();
  const projects = Math.max(1, Math.floor(sizes.clients / 10));
  const insert = async (count: number, sql: (from: string) => string, params: unknown[] = []) => {
    const { prefix, from } = d.rows(count);
    await d.run(`${prefix} ${sql(from)}`, params);
  };
  const hash = await hashPassword('seeded-user-password');
  const json = (...parts: string[]) => parts.join(' || ');

  try {
    await d.run('BEGIN');
    await insert(
      sizes.users,
      (from) => `INSERT INTO users (subject_id, account, account_normalized, password_hash, display_name, email, email_verified, student_status, is_admin, status, created_at, updated_at)
        SELECT 'seed-user-' || i, 'seed-user-' || i, 'seed-user-' || i, $1, 'Seeded User ' || i, 'seed-user-' || i || '@example.edu', 1, 'active', 0, 'active', ${now}, ${now} FROM ${from}`,
      [hash],
    );
    await insert(
      projects,
      (from) => `INSERT INTO projects (project_id, name, description, status, version, created_at, updated_at)
        SELECT 'seed-project-' || i, 'Seeded project ' || i, 'A project of the growth run', 'active', 2, ${now}, ${now} FROM ${from}`,
    );
    await insert(
      projects,
      (from) => `INSERT INTO project_members (project_id, subject_id, role, created_at) SELECT 'seed-project-' || i, 'seed-user-' || i, 'owner', ${now} FROM ${from}`,
    );
    const clientColumns = `'["https://app' || i || '.example.edu/callback"]', '["https://app' || i || '.example.edu/"]', '["openid","profile","email","offline_access"]', 1`;
    await insert(
      sizes.clients,
      (from) => `INSERT INTO clients (client_id, project_id, client_type, display_name, description, redirect_uris, post_logout_redirect_uris, scope_whitelist, require_pkce, status, client_version, revision, created_at, updated_at)
        SELECT 'seed-client-' || i, 'seed-project-' || (1 + i % ${projects}), 'web', 'Seeded client ' || i, '', ${clientColumns}, 'active', 1, 1, ${now}, ${now} FROM ${from}`,
    );
    await insert(
      sizes.clients,
      (from) => `INSERT INTO client_revisions (client_id, revision, redirect_uris, post_logout_redirect_uris, scope_whitelist, require_pkce, created_by, created_at)
        SELECT 'seed-client-' || i, 1, ${clientColumns}, 'seed-user-1', ${now} FROM ${from}`,
    );
    await insert(
      sizes.clients,
      (from) => `INSERT INTO client_secrets (secret_id, client_id, digest, status, created_at, expires_at, last_used_at)
        SELECT 'seed-secret-' || i, 'seed-client-' || i, ${d.randomHex} || ${d.randomHex}, 'active', ${now}, NULL, NULL FROM ${from}`,
    );
    await insert(
      sizes.users,
      (from) => `INSERT INTO sessions (token_digest, subject_id, kind, created_at, last_seen_at, expires_at, revoked_at)
        SELECT ${d.randomHex} || ${d.randomHex}, 'seed-user-' || i, CASE WHEN i % 2 = 0 THEN 'agent' ELSE 'console' END, ${now}, ${now}, ${now + 86_400_000}, NULL FROM ${from}`,
    );
    await insert(
      sizes.users + sizes.clients,
      (from) => `INSERT INTO audit_log (audit_id, at, actor_subject_id, surface, action, target_type, target_id, project_id, before_json, after_json, ip)
        SELECT 'seed-audit-' || i, ${now} - i * 1000, 'seed-user-1', 'agent', 'client.create', 'client', 'seed-client-' || (1 + i % ${sizes.clients}), 'seed-project-' || (1 + i % ${projects}), NULL,
          '{"displayName":"Seeded client","redirectUris":["https://app.example.edu/callback"]}', '127.0.0.1' FROM ${from}`,
    );
    await seedArtifacts(d, insert, sizes, now, json);
    await d.run('COMMIT');
    // What autovacuum would do shortly after a bulk load, done now rather than in the middle of a
    // measurement (on these two cores it would slow the run it happened in); SQLite is left as Sesame
    // leaves it (no ANALYZE).
    if (engine === 'postgres') await d.run('VACUUM (ANALYZE)');
  } finally {
    await d.close();
  }
}

async function seedArtifacts(
  d: Dialect,
  insert: (count: number, sql: (from: string) => string) => Promise<void>,
  sizes: GrowthSizes,
  now: number,
  json: (...parts: string[]) => string,
): Promise<void> {
  const counts = Object.fromEntries(ARTIFACT_SHARES.map(([kind, share]) => [kind, Math.round(sizes.artifacts * share)]));
  const grants = counts.Grant!;
  const iat = Math.floor(now / 1000);
  // Each row expires between one hour and about two weeks from now: all of them are live.
  const expires = `${now + 3_600_000} + (i % 1000) * 1200000`;
  const user = `'seed-user-' || (1 + i % ${sizes.users})`;
  const client = `'seed-client-' || (1 + i % ${sizes.clients})`;
  const grant = `'seed-grant-' || (1 + i % ${grants})`;
  const common = (kind: string) => json(`'{"iat":${iat},"exp":${iat + 3600},"kind":"${kind}","accountId":"'`, user, `'","clientId":"'`, client, `'"'`);
  const tokenPayload = (kind: string) =>
    json(common(kind), `',"grantId":"'`, grant, `'","scope":"openid profile email offline_access","gty":"authorization_code","sessionUid":"'`, d.randomHex, `'","jti":"'`, d.randomHex, `'"}'`);
  const rows = (kind: string, id: string, payload: string, grantId: string, uid: string, consumed = 'NULL') =>
    insert(counts[kind]!, (from) => `INSERT INTO oidc_payloads (kind, id, payload, grant_id, uid, expires_at, consumed_at)
      SELECT '${kind}', ${id}, ${payload}, ${grantId}, ${uid}, ${expires}, ${consumed} FROM ${from}`);

  await rows('Grant', grant.replace(`1 + i % ${grants}`, 'i'), json(common('Grant'), `',"openid":{"scope":"openid profile email offline_access"},"jti":"seed-grant-' || i || '"}'`), 'NULL', 'NULL');
  await rows('AccessToken', `${d.randomHex} || ${d.randomHex}`, tokenPayload('AccessToken'), grant, 'NULL');
  await rows('RefreshToken', `${d.randomHex} || ${d.randomHex}`, tokenPayload('RefreshToken'), grant, 'NULL');
  await rows('AuthorizationCode', `${d.randomHex} || ${d.randomHex}`, tokenPayload('AuthorizationCode'), grant, 'NULL', `CASE WHEN i % 2 = 0 THEN ${now} ELSE NULL END`);
  await rows('Session', `${d.randomHex}`, json(common('Session'), `',"uid":"seed-session-' || i || '","loginTs":${iat},"authorizations":{}}'`), 'NULL', `'seed-session-' || i`);
  await rows('Interaction', `${d.randomHex}`, json(common('Interaction'), `',"uid":"seed-interaction-' || i || '","prompt":{"name":"login"},"params":{"scope":"openid"}}'`), 'NULL', `'seed-interaction-' || i`);
  // A pair that comes round again keeps its first row (SQLite parses ON CONFLICT after a SELECT only behind a WHERE).
  await insert(counts.RememberedConsent!, (from) => `INSERT INTO remembered_consents (subject_id, client_id, scopes, expires_at)
    SELECT ${user}, ${client}, '["openid","profile","email"]', ${expires} FROM ${from} WHERE 1 = 1 ON CONFLICT DO NOTHING`);
}
