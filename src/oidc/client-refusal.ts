import type { KoaContextWithOIDC as Ctx } from 'oidc-provider';
import type { Store } from '../storage/store.ts';

/**
 * Why /auth refused a client id oidc-provider reported as invalid, for the error page's developer
 * section: a disabled client, or one of an archived project, is otherwise indistinguishable from a
 * mistyped id. Only the status is told, nothing of the project, to anyone holding the client id.
 */
export async function explainClientRefusal(store: Store, ctx: Ctx): Promise<string | undefined> {
  const source = (ctx.method === 'POST' ? ctx.oidc?.body : ctx.query) as Record<string, unknown> | undefined;
  const clientId = typeof source?.client_id === 'string' ? source.client_id : undefined;
  if (!clientId) return undefined;
  try {
    const found = await store.repos.clients.findForProtocol(clientId);
    if (!found) return undefined;
    if (found.projectStatus !== 'active') {
      return `The client ${clientId} belongs to an archived project: it signs no one in until the project's owner or an administrator makes the project active again.`;
    }
    if (found.client.status !== 'active') {
      return `The client ${clientId} is disabled: it signs no one in until a maintainer of its project enables it again.`;
    }
    return undefined;
  } catch {
    // The page still answers with what oidc-provider said when the database cannot tell more.
    return undefined;
  }
}
