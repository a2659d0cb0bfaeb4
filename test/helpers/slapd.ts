import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Attribute, Change, Client } from 'ldapts';
import { freePort } from './oidc-server.ts';

const SLAPD = '/usr/sbin/slapd';
const MODULES = '/usr/lib/ldap';
const SCHEMAS = '/etc/ldap/schema';

/**
 * Whether the directory suites run: always in CI, where a missing slapd fails them (CI installs it,
 * see .ci/run); locally only where Debian's slapd is installed.
 */
export const SLAPD_AVAILABLE = existsSync(SLAPD) || Boolean(process.env.CI);

export const BASE_DN = 'dc=example,dc=org';
export const PEOPLE_DN = `ou=people,${BASE_DN}`;
export const ADMIN_GROUP_DN = `cn=sesame-admins,ou=groups,${BASE_DN}`;
/** The account Sesame binds as to search (read access to people and groups, nothing else). */
export const SERVICE_BIND = { dn: `cn=sesame,ou=services,${BASE_DN}`, password: 'service-secret-9f2c' };
const ROOT = { dn: `cn=admin,${BASE_DN}`, password: 'root-secret-71ab' };

export interface DirectoryPerson {
  uid: string;
  cn: string;
  mail?: string;
  password: string;
}

export interface TestDirectory {
  /** `ldap://127.0.0.1:<port>` */
  url: string;
  /** With `{tls: true}`: `ldaps://127.0.0.1:<port>`, and StartTLS on `url`, with a self-signed certificate for 127.0.0.1. */
  ldapsUrl: string | null;
  /** That certificate (PEM), to trust it through NODE_EXTRA_CA_CERTS. */
  certificateFile: string | null;
  addPerson(person: DirectoryPerson): Promise<string>;
  removePerson(uid: string): Promise<void>;
  changePassword(uid: string, password: string): Promise<void>;
  setAttribute(uid: string, type: string, value: string): Promise<void>;
  addAdmin(uid: string): Promise<void>;
  /** A groupOfNames `cn=<cn>,ou=groups,...` whose members are exactly these people (the service account stands in when none: groupOfNames needs one). Returns its DN. */
  setGroup(cn: string, uids: readonly string[]): Promise<string>;
  removeAdmin(uid: string): Promise<void>;
  /** Locks the entry for good (ppolicy's pwdAccountLockedTime 000001010000Z): how OpenLDAP disables a person. */
  lockPerson(uid: string): Promise<void>;
  /**
   * How many binds with a wrong password reached the directory for this person since their last good one
   * (ppolicy's pwdFailureTime; the policy records them and locks nobody out before 1000).
   */
  failedBinds(uid: string): Promise<number>;
  /** SIGSTOP: the port still accepts connections and nothing answers (a hung directory). */
  freeze(): void;
  thaw(): void;
  /** Stops slapd and waits until the port refuses connections; `start` brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const personDn = (uid: string) => `uid=${uid},${PEOPLE_DN}`;

function config(dir: string, tls: boolean): string {
  const certificates = tls ? `TLSCertificateFile ${join(dir, 'cert.pem')}\nTLSCertificateKeyFile ${join(dir, 'key.pem')}\n` : '';
  return `${certificates}include ${SCHEMAS}/core.schema
include ${SCHEMAS}/cosine.schema
include ${SCHEMAS}/inetorgperson.schema
include ${SCHEMAS}/nis.schema
modulepath ${MODULES}
moduleload back_mdb
moduleload ppolicy
pidfile ${join(dir, 'slapd.pid')}
argsfile ${join(dir, 'slapd.args')}

database mdb
maxsize 16777216
suffix "${BASE_DN}"
rootdn "${ROOT.dn}"
rootpw ${ROOT.password}
directory ${join(dir, 'data')}
# The password policy overlay: a locked entry (pwdAccountLockedTime) cannot bind, as in a real directory.
overlay ppolicy
ppolicy_default "cn=default,ou=policies,${BASE_DN}"
access to attrs=userPassword by self write by anonymous auth by * none
access to * by dn.exact="${SERVICE_BIND.dn}" read by self read by * none
`;
}

const SEED = `dn: ${BASE_DN}
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ${PEOPLE_DN}
objectClass: organizationalUnit
ou: people

dn: ou=groups,${BASE_DN}
objectClass: organizationalUnit
ou: groups

dn: ou=services,${BASE_DN}
objectClass: organizationalUnit
ou: services

dn: ou=policies,${BASE_DN}
objectClass: organizationalUnit
ou: policies

dn: cn=default,ou=policies,${BASE_DN}
objectClass: device
objectClass: pwdPolicy
cn: default
pwdAttribute: userPassword
pwdLockout: TRUE
pwdMaxFailure: 1000

dn: ${SERVICE_BIND.dn}
objectClass: person
objectClass: simpleSecurityObject
cn: sesame
sn: sesame
userPassword: ${SERVICE_BIND.password}

dn: ${ADMIN_GROUP_DN}
objectClass: groupOfNames
cn: sesame-admins
member: ${SERVICE_BIND.dn}
`;

async function selfSignedCertificate(dir: string): Promise<void> {
  const openssl = spawn('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const code = await new Promise((resolve) => openssl.once('exit', resolve));
  if (code !== 0) throw new Error(`openssl could not make a test certificate (exit ${String(code)})`);
}

async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Debian's slapd on a free 127.0.0.1 port with a throwaway slapd.conf and mdb database in a temp
 * folder (never the system's configuration), seeded with the people ou, a service account for Sesame's
 * searches and an admin group. Stopped by its PID.
 */
export async function startTestDirectory(options: { tls?: boolean } = {}): Promise<TestDirectory> {
  if (!existsSync(SLAPD)) throw new Error(`slapd is required and missing at ${SLAPD} (apt-get install slapd ldap-utils)`);
  const dir = await mkdtemp(join(tmpdir(), 'sesame-slapd-'));
  await mkdir(join(dir, 'data'));
  const tls = options.tls ?? false;
  if (tls) await selfSignedCertificate(dir);
  const configFile = join(dir, 'slapd.conf');
  await writeFile(configFile, config(dir, tls));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : null;
  let child: ChildProcess | null = null;
  let output = '';

  async function start(): Promise<void> {
    // -d 0: stay in the foreground, so the child's PID is slapd's and nothing outlives the test.
    const listeners = ldapsUrl ? `${url}/ ${ldapsUrl}/` : `${url}/`;
    const started = spawn(SLAPD, ['-f', configFile, '-h', listeners, '-d', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    started.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    for (let tries = 0; tries < 100; tries++) {
      if (started.exitCode !== null) throw new Error(`slapd exited with ${started.exitCode}: ${output}`);
      if (await portAnswers(port)) return;
      await sleep(50);
    }
    throw new Error(`slapd did not listen on ${url}: ${output}`);
  }

  async function stop(): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000)]);
    if (running.exitCode === null && running.signalCode === null) {
      running.kill('SIGKILL');
      await exited;
    }
  }

  async function asRoot<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ url, timeout: 5_000, connectTimeout: 5_000 });
    try {
      await client.bind(ROOT.dn, ROOT.password);
      return await work(client);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  await start();
  await asRoot(async (client) => {
    for (const entry of SEED.split('\n\n')) {
      const lines = entry.trim().split('\n').map((line) => line.split(': ') as [string, string]);
      const attributes: Record<string, string[]> = {};
      for (const [name, value] of lines.slice(1)) (attributes[name] ??= []).push(value);
      await client.add(lines[0]![1], attributes);
    }
  });

  return {
    url,
    ldapsUrl,
    certificateFile: tls ? join(dir, 'cert.pem') : null,
    async addPerson(person) {
      const dn = personDn(person.uid);
      await asRoot((client) => client.add(dn, {
        objectClass: ['inetOrgPerson'],
        uid: person.uid,
        cn: person.cn,
        sn: person.cn.split(' ').at(-1) ?? person.cn,
        ...(person.mail ? { mail: person.mail } : {}),
        userPassword: person.password,
      }));
      return dn;
    },
    removePerson: (uid) => asRoot((client) => client.del(personDn(uid))),
    changePassword: (uid, password) => asRoot((client) => client.modify(personDn(uid), new Change({ operation: 'replace', modification: new Attribute({ type: 'userPassword', values: [password] }) }))),
    setAttribute: (uid, type, value) => asRoot((client) => client.modify(personDn(uid), new Change({ operation: 'replace', modification: new Attribute({ type, values: [value] }) }))),
    removeAdmin: (uid) => asRoot((client) => client.modify(ADMIN_GROUP_DN, new Change({ operation: 'delete', modification: new Attribute({ type: 'member', values: [personDn(uid)] }) }))),
    lockPerson: (uid) => asRoot((client) => client.modify(personDn(uid), new Change({ operation: 'add', modification: new Attribute({ type: 'pwdAccountLockedTime', values: ['000001010000Z'] }) }))),
    async setGroup(cn, uids) {
      const dn = `cn=${cn},ou=groups,${BASE_DN}`;
      const members = uids.length > 0 ? uids.map(personDn) : [SERVICE_BIND.dn];
      await asRoot(async (client) => {
        const exists = await client.search(dn, { scope: 'base', attributes: ['1.1'] }).then(() => true, () => false);
        if (exists) await client.modify(dn, new Change({ operation: 'replace', modification: new Attribute({ type: 'member', values: members }) }));
        else await client.add(dn, { objectClass: ['groupOfNames'], cn, member: members });
      });
      return dn;
    },
    addAdmin: (uid) => asRoot((client) => client.modify(ADMIN_GROUP_DN, new Change({ operation: 'add', modification: new Attribute({ type: 'member', values: [personDn(uid)] }) }))),
    failedBinds: (uid) => asRoot(async (client) => {
      const { searchEntries } = await client.search(personDn(uid), { scope: 'base', attributes: ['pwdFailureTime'] });
      const times = searchEntries[0]?.pwdFailureTime;
      return Array.isArray(times) ? times.length : times ? 1 : 0;
    }),
    freeze: () => { child?.kill('SIGSTOP'); },
    thaw: () => { child?.kill('SIGCONT'); },
    stop: async () => {
      await stop();
      for (let tries = 0; tries < 100 && (await portAnswers(port)); tries++) await sleep(50);
    },
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
