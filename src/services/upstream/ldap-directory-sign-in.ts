import type { User } from '../../domain/accounts.ts';
import type { IdentityProvider } from '../../domain/identity-providers.ts';
import { checkDirectoryPassword, DIRECTORY_TIMEOUT_MS, DirectoryUnavailableError } from '../../directory/ldap-directory.ts';
import { AppError } from '../../errors.ts';
import type { SignInAttempt } from '../../rate-limit/sign-in-limiter.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { FederatedSignInRefused, type FederatedSignInService } from './federated-person.ts';
import type { IdentityProviderService } from './identity-providers.ts';

/** All directories of one sign-in together answer within this: with the sign-in limits' slowdown (at most 4 s) the login page is back within 10 s. */
export const DIRECTORIES_BUDGET_MS = 6_000;

/** How long the login page and the logins ask a person to wait after a directory did not answer. */
export const DIRECTORY_RETRY_AFTER_SECONDS = 30;

type Directory = Extract<IdentityProvider, { type: 'ldap' }>;

/**
 * The issuer of a directory's links: named after the provider, not its URL, so moving the directory to
 * another host or from ldap:// to ldaps:// keeps every person linked to their entry.
 */
export const directoryIssuer = (providerName: string) => `ldap:${providerName}`;

function directoryUnavailable(cause: DirectoryUnavailableError): AppError {
  const error = new AppError(
    'directory_unavailable',
    `The directory that checks this account's password is not answering: wait ${DIRECTORY_RETRY_AFTER_SECONDS} seconds, then sign in again. Accounts with a password in Sesame still sign in.`,
    { retryAfterSeconds: DIRECTORY_RETRY_AFTER_SECONDS },
  );
  // Logged by the surface, never sent: it may name the directory's host or say the service account was refused.
  return Object.assign(error, { cause });
}

/**
 * The password check against the enabled LDAP directories, in their order, for an account with no
 * local password: the first directory that finds the account decides. The person is linked, created or
 * refreshed through the federated sign-in. Null for a wrong password, an account no directory knows, or
 * a person disabled in Sesame, which the caller counts as a failure; throws 503 directory_unavailable
 * when a directory that might know the account did not answer.
 */
export function createDirectorySignIn(deps: ServiceDeps, { federated, providers }: { federated: FederatedSignInService; providers: IdentityProviderService }) {

  /** The directory's bind password in clear; empty when none is stored (an anonymous search). */
  async function bindPasswordOf(directory: Directory): Promise<string> {
    return (await providers.providerForSignIn(directory.name))?.secret ?? '';
  }

  return {
    /**
     * Whether an enabled directory checks this person's password: they are linked to it. Such a person
     * signs in with the directory's password only, so one removed from the directory cannot sign in
     * with a local password they set meanwhile (a reset link, My account).
     */
    async checksPasswordOf(subjectId: string): Promise<boolean> {
      const links = await deps.store.repos.upstreamIdentities.listOf(subjectId);
      if (links.length === 0) return false;
      const directories = new Set((await providers.enabledProviders('ldap')).map((provider) => provider.name));
      return links.some((link) => directories.has(link.providerName));
    },

    /**
     * `from` is the sign-in attempt: at most DIRECTORY_BIND_CAP failed binds per account reach the directories
     * (the sign-in limiter's `directoryBind`), except from the person's known browsers and addresses.
     */
    async check(account: string, password: string, from: SignInAttempt): Promise<User | null> {
      const { ip } = from;
      const directories = (await providers.enabledProviders('ldap')).filter((provider): provider is Directory => provider.type === 'ldap');
      const deadline = Date.now() + DIRECTORIES_BUDGET_MS;
      let unanswered: DirectoryUnavailableError | null = null;
      for (const directory of directories) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          unanswered ??= new DirectoryUnavailableError(`No time was left to ask the directory ${directory.name}.`);
          break;
        }
        let result;
        try {
          const bindPassword = await bindPasswordOf(directory);
          result = await deps.signInLimiter.directoryBind(
            from,
            () => checkDirectoryPassword({ settings: directory.ldap, bindPassword }, account, password, Math.min(DIRECTORY_TIMEOUT_MS, remaining)),
            (checked) => checked.outcome === 'wrong_password',
          );
        } catch (error) {
          if (!(error instanceof DirectoryUnavailableError)) throw error;
          unanswered ??= error;
          continue;
        }
        if (result.outcome === 'not_found') continue;
        if (result.outcome === 'wrong_password') return null;
        const { entry } = result;
        if (entry.groupSearchError !== undefined) deps.log?.warn({ provider: directory.name, reason: entry.groupSearchError }, 'directory group search failed; the person\'s groups from it are left as they were');
        try {
          const signedIn = await federated.signIn({
            providerName: directory.name,
            issuer: directoryIssuer(directory.name),
            subject: entry.subject,
            attributes: {
              account: entry.account,
              displayName: entry.displayName,
              email: entry.email,
              emailVerified: false,
              isAdmin: directory.ldap.adminGroupDn ? entry.isAdmin : undefined,
              groups: entry.groupDns,
            },
            ip,
          });
          return signedIn.user;
        } catch (error) {
          // A person disabled in Sesame is refused exactly like a wrong password, as with local accounts.
          if (error instanceof FederatedSignInRefused && error.reason === 'account_disabled') return null;
          throw error;
        }
      }
      if (unanswered) throw directoryUnavailable(unanswered);
      return null;
    },
  };
}

export type DirectorySignIn = ReturnType<typeof createDirectorySignIn>;
