import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { ASSISTANT_SCOPES } from '../domain/assistant-scopes.ts';
import { isMetadataDocumentClientId, MetadataDocumentRefused } from './assistant-metadata-documents.ts';
import { explainProtocolError, type ErrorPageInput } from '../pages/error-page.ts';
import { text, type PageLanguage } from '../pages/layout.ts';

type Ctx = KoaContextWithOIDC;

const asksForSesameScopes = (scope: unknown) => typeof scope === 'string' && scope.split(' ').some((value) => (ASSISTANT_SCOPES as readonly string[]).includes(value));

/**
 * An authorization request for sesame:* scopes, or from an assistant known by its metadata document,
 * must name the resource (RFC 8707) it wants a token for: without it no token could carry those
 * scopes. It ends on an error page before any sign-in or consent, and the client receives nothing.
 */
export function requireResourceForAssistants(options: { resources: string[]; language: (ctx: Ctx) => PageLanguage; render: (ctx: Ctx, page: ErrorPageInput) => void }) {
  return async (ctx: Ctx, next: () => Promise<unknown>): Promise<void> => {
    if (ctx.method !== 'GET' || ctx.path !== '/auth') return void (await next());
    const query = ctx.query as Record<string, unknown>;
    const resource = query.resource;
    const missing = resource === undefined || resource === '' || (Array.isArray(resource) && resource.length === 0);
    const clientId = typeof query.client_id === 'string' ? query.client_id : '';
    if (!missing || !(asksForSesameScopes(query.scope) || isMetadataDocumentClientId(clientId))) return void (await next());
    const language = options.language(ctx);
    const wanted = options.resources.length > 0 ? options.resources.join(' or ') : 'one of Sesame\'s resources';
    ctx.status = 400;
    options.render(ctx, {
      ...explainProtocolError('invalid_target', `resource is required: an assistant asks for a token for ${wanted} with the resource parameter (RFC 8707)`, language),
      message: text(language, 'error.assistantResource'),
    });
  };
}

/**
 * The error page's text when an assistant known by its metadata document was refused (the document could
 * not be fetched, was invalid, or the feature is off); undefined for every other client.
 */
export function explainMetadataDocumentRefusal(ctx: Ctx, out: { error: string; error_description?: string | undefined }, error: unknown, options: { enabled: boolean; language: PageLanguage }): ErrorPageInput | undefined {
  const source = (ctx.method === 'POST' ? ctx.oidc?.body : ctx.query) as Record<string, unknown> | undefined;
  const clientId = typeof source?.client_id === 'string' ? source.client_id : '';
  // invalid_redirect_uri is also the document's own redirect_uris being invalid (InvalidClientMetadata); a request's redirect_uri outside them keeps the usual page.
  const documentProblem = ['invalid_client', 'invalid_client_metadata'].includes(out.error) || error instanceof errors.InvalidClientMetadata;
  if (!isMetadataDocumentClientId(clientId) || !documentProblem) return undefined;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const description = !options.enabled
    ? 'Sesame does not accept client ID metadata documents (ASSISTANT_METADATA_DOCUMENTS=off): an administrator registers the assistant as a native client instead'
    : cause instanceof MetadataDocumentRefused
      ? cause.message
      : error instanceof MetadataDocumentRefused
        ? error.message
        : /fetch not allowed/.test(out.error_description ?? '')
          ? 'a client_id naming a metadata document must be an https URL with a path'
          : (out.error_description ?? out.error);
  return { ...explainProtocolError(out.error, description, options.language), message: text(options.language, 'error.assistantDocument') };
}
