import type { Actor } from '../../src/domain/actor.ts';
import type { Scope } from '../../src/domain/clients.ts';
import type { User } from '../../src/services/people/users.ts';
import type { OidcTestServer } from './oidc-server.ts';
import { importClientsDocument } from '../../src/startup/first-deployment.ts';

export const PERSON = { account: 'alice', password: 'alice-password-1' } as const;

/** A secret with every character RFC 6749 2.3.1 form-encoding treats specially among the unreserved ones. */
export const WEB_SECRET_WITH_SPECIALS = 'web-secret._~with-specials.AND~more_0123456789';
export const IMPORTED_WEB_CLIENT_ID = 'rp-web.imported~1';

export interface RelyingParty {
  clientId: string;
  clientSecret?: string | undefined;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

export interface OidcFixture {
  admin: User;
  adminActor: Actor;
  person: User;
  projectId: string;
  /** Imported from a first-deployment document, with a secret containing `-._~`; all five scopes. */
  web: RelyingParty;
  /** A spa registered through the clients service: openid profile email student. */
  spa: RelyingParty;
  register(input: { clientType: 'web' | 'spa'; scopes?: Scope[]; requirePkce?: boolean; projectId?: string }): Promise<RelyingParty>;
}

/**
 * The people and clients the protocol suites use, written through the same services the APIs
 * use: a person with every claim set, an imported web client and a registered spa client.
 */
export async function setUpOidcFixture(server: OidcTestServer): Promise<OidcFixture> {
  const { services } = server;
  const admin = (await services.users.findByAccount(server.config.bootstrapAdmin.account))!;
  const adminActor: Actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli', ip: null };
  const person = await services.users.createUser(adminActor, {
    account: PERSON.account,
    displayName: 'Alice Example',
    email: 'alice@example.edu',
    emailVerified: true,
    studentStatus: 'active',
    password: PERSON.password,
  });

  const rp = (name: string) => ({ redirectUri: `http://127.0.0.1:9/${name}/callback`, postLogoutRedirectUri: `http://127.0.0.1:9/${name}/signed-out` });
  const webUris = rp('web');
  await importClientsDocument(services, adminActor, {
    clients: [
      {
        clientId: IMPORTED_WEB_CLIENT_ID,
        clientType: 'web',
        clientSecret: WEB_SECRET_WITH_SPECIALS,
        displayName: 'Imported web app',
        redirectUris: [webUris.redirectUri],
        postLogoutRedirectUris: [webUris.postLogoutRedirectUri],
        scopeWhitelist: ['openid', 'profile', 'email', 'student', 'offline_access'],
      },
    ],
  });
  const project = await services.projects.createProject(adminActor, { name: 'Protocol tests' });

  let count = 0;
  const register: OidcFixture['register'] = async (input) => {
    count += 1;
    const uris = rp(`${input.clientType}${count}`);
    const scopes = input.scopes ?? (input.clientType === 'web' ? ['openid', 'profile', 'email', 'student', 'offline_access'] : ['openid', 'profile', 'email', 'student']);
    const { client, secret } = await services.clients.registerClient(adminActor, input.projectId ?? project.projectId, {
      clientType: input.clientType,
      displayName: `Test ${input.clientType} ${count}`,
      redirectUris: [uris.redirectUri],
      postLogoutRedirectUris: [uris.postLogoutRedirectUri],
      scopeWhitelist: scopes,
      ...(input.requirePkce === undefined ? {} : { requirePkce: input.requirePkce }),
    });
    return { clientId: client.clientId, clientSecret: secret?.value, ...uris };
  };

  const spa = await register({ clientType: 'spa' });
  return {
    admin,
    adminActor,
    person,
    projectId: project.projectId,
    web: { clientId: IMPORTED_WEB_CLIENT_ID, clientSecret: WEB_SECRET_WITH_SPECIALS, ...webUris },
    spa,
    register,
  };
}
