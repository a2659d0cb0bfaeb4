import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Client, InvalidCredentialsError, NoSuchObjectError, type Entry } from 'ldapts';
import { DEFAULT_GROUP_SEARCH_FILTER, type DirectorySettings } from '../domain/identity-providers.ts';
import { escapeFilterValue, groupSearchFilter, userSearchFilter } from './ldap-filter.ts';

/** One directory as the sign-in needs it: its settings and the service account's password, unsealed. */
export interface DirectoryConnection {
  settings: DirectorySettings;
  bindPassword: string;
}

/** The person a directory found and whose password it accepted, read through the attribute mapping. */
export interface DirectoryEntry {
  /** A stable id for the entry: OpenLDAP's `entryUUID`, Active Directory's `objectGUID` (hex), else the DN. */
  subject: string;
  dn: string;
  account: string;
  displayName: string | null;
  email: string | null;
  /** Whether the entry is a member of the settings' `adminGroupDn` (false when none is set). */
  isAdmin: boolean;
  /**
   * The DNs of the groups `groupSearchFilter` finds under `groupSearchBase`; undefined when no group search
   * is set, or when it failed (then `groupSearchError` says why, and the person's groups are left as they were).
   */
  groupDns?: string[] | undefined;
  groupSearchError?: string | undefined;
}

/** Most groups read for one person: more is a misconfigured filter, and the search fails rather than cutting the list. */
export const MAX_GROUPS_PER_PERSON = 1000;

export type DirectoryCheck =
  | { outcome: 'signed_in'; entry: DirectoryEntry }
  /** No entry, or more than one, matches the account: the directory does not know this person. */
  | { outcome: 'not_found' }
  | { outcome: 'wrong_password' };

/** The directory could not answer (unreachable, hung, TLS refused, or the service account refused). */
export class DirectoryUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DirectoryUnavailableError';
  }
}

/** The most a directory check may take: DESIGN section 11 wants the login page back within 10 s. */
export const DIRECTORY_TIMEOUT_MS = 5_000;

const first = (value: Entry[string] | undefined): string | null => {
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined) return null;
  const text = (Buffer.isBuffer(one) ? one.toString('utf8') : one).trim();
  return text === '' ? null : text;
};

const values = (value: Entry[string] | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((one) => (Buffer.isBuffer(one) ? one.toString('utf8') : one));

const guidOf = (value: Entry[string] | undefined): string | null => {
  const one = Array.isArray(value) ? value[0] : value;
  return Buffer.isBuffer(one) && one.length > 0 ? `guid:${one.toString('hex')}` : null;
};

// Enough for comparing DNs a directory wrote: case and the spaces after commas are not significant.
const sameDn = (a: string, b: string) => a.replace(/\s*,\s*/g, ',').toLowerCase() === b.replace(/\s*,\s*/g, ',').toLowerCase();

function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new DirectoryUnavailableError(`The directory did not answer within ${ms} ms.`));
    }, ms);
  });
  // The abandoned work still rejects later (its socket is destroyed); that rejection has no reader.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The upgraded socket knows no host of its own: the certificate is checked against the URL's. */
function startTlsOptions(url: string): ConnectionOptions {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return { host, ...(isIP(host) ? {} : { servername: host }) };
}

async function isAdminEntry(client: Client, settings: DirectorySettings, entry: Entry): Promise<boolean> {
  const group = settings.adminGroupDn;
  if (!group) return false;
  if (values(entry['memberOf']).some((dn) => sameDn(dn, group))) return true;
  const dn = escapeFilterValue(entry.dn);
  try {
    const { searchEntries } = await client.search(group, { scope: 'base', filter: `(|(member=${dn})(uniqueMember=${dn}))`, attributes: ['1.1'], sizeLimit: 1 });
    return searchEntries.length > 0;
  } catch (error) {
    if (error instanceof NoSuchObjectError) return false;
    throw error;
  }
}

/** The groups the person's entry is in, searched as the service account; a failure is reported, not thrown. */
async function searchGroups(client: Client, settings: DirectorySettings, dn: string): Promise<Pick<DirectoryEntry, 'groupDns' | 'groupSearchError'>> {
  if (!settings.groupSearchBase) return {};
  try {
    const { searchEntries } = await client.search(settings.groupSearchBase, {
      scope: 'sub',
      filter: groupSearchFilter(settings.groupSearchFilter ?? DEFAULT_GROUP_SEARCH_FILTER, dn),
      attributes: ['1.1'],
      sizeLimit: MAX_GROUPS_PER_PERSON,
    });
    return { groupDns: searchEntries.map((entry) => entry.dn) };
  } catch (error) {
    return { groupSearchError: (error as Error).message };
  }
}

async function check(client: Client, directory: DirectoryConnection, account: string, password: string): Promise<DirectoryCheck> {
  const { settings } = directory;
  if (settings.startTls) await client.startTLS(startTlsOptions(settings.url));
  try {
    if (settings.bindDn) await client.bind(settings.bindDn, directory.bindPassword);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) throw new DirectoryUnavailableError('The directory refused the service account (bindDn and bindPassword).', { cause: error });
    throw error;
  }
  const mapped = settings.attributes;
  const { searchEntries } = await client.search(settings.userSearchBase, {
    scope: 'sub',
    filter: userSearchFilter(settings.userSearchFilter, account),
    attributes: [mapped.account, mapped.displayName, mapped.email, 'entryUUID', 'objectGUID', 'memberOf'],
    explicitBufferAttributes: ['objectGUID'],
    // Two are enough to tell one match from an ambiguous filter, which signs nobody in.
    sizeLimit: 2,
  });
  if (searchEntries.length !== 1) return { outcome: 'not_found' };
  const found = searchEntries[0]!;
  const isAdmin = await isAdminEntry(client, settings, found);
  // Before the person's bind: the service account may read groups the person cannot.
  const groups = await searchGroups(client, settings, found.dn);
  try {
    await client.bind(found.dn, password);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return { outcome: 'wrong_password' };
    throw error;
  }
  return {
    outcome: 'signed_in',
    entry: {
      subject: first(found['entryUUID']) ?? guidOf(found['objectGUID']) ?? found.dn,
      dn: found.dn,
      account: first(found[mapped.account]) ?? account,
      displayName: first(found[mapped.displayName]),
      email: first(found[mapped.email]),
      isAdmin,
      ...groups,
    },
  };
}

/**
 * Checks an account and password against one directory: a bind as the service account, a search
 * under `userSearchBase` with the account escaped into `userSearchFilter`, then a bind as the one
 * entry found with the typed password. Throws DirectoryUnavailableError when the directory cannot
 * answer within `timeoutMs`; a wrong password or an unknown account is an answer, not an error.
 */
export async function checkDirectoryPassword(directory: DirectoryConnection, account: string, password: string, timeoutMs = DIRECTORY_TIMEOUT_MS): Promise<DirectoryCheck> {
  // An empty password makes a simple bind anonymous, which a directory accepts for any DN.
  if (password === '' || account === '') return { outcome: 'wrong_password' };
  // No tlsOptions: given any, ldapts speaks TLS from the first byte even on ldap://.
  const client = new Client({ url: directory.settings.url, connectTimeout: timeoutMs, timeout: timeoutMs });
  const close = () => void client.unbind().catch(() => undefined);
  try {
    return await withDeadline(check(client, directory, account, password), timeoutMs, close);
  } catch (error) {
    if (error instanceof DirectoryUnavailableError) throw error;
    throw new DirectoryUnavailableError(`The directory at ${directory.settings.url} did not answer: ${(error as Error).message}`, { cause: error });
  } finally {
    close();
  }
}
