import type { KoaContextWithOIDC } from 'oidc-provider';
import type { AppError } from '../errors.ts';
import { databaseFaultToAppError } from '../ops/database-faults.ts';
import { pageLanguage } from '../pages/page-language.ts';
import { explainProtocolError, renderErrorPage } from '../pages/error-page.ts';

type Next = () => Promise<unknown>;
type Log = { warn(obj: object, msg: string): void };

/**
 * oidc-provider answers every error it did not raise itself as 500 server_error. When the database
 * is the cause, the request is fine and only needs repeating: this answers 503 with Retry-After
 * instead, `temporarily_unavailable` (RFC 6749 4.1.2.1) as JSON at /token and the other APIs, and
 * on the error page at /auth. oidc-provider's error handlers tell `noteServerError` the original
 * error; an error escaping them (saving the session) reaches the middleware directly.
 */
export function databaseUnavailableAnswers(log: Log | undefined) {
  const faults = new WeakMap<object, AppError>();

  return {
    /** For provider.on('server_error'): true when the database was the cause (then it is logged as such). */
    noteServerError(ctx: KoaContextWithOIDC, error: unknown): boolean {
      const fault = databaseFaultToAppError(error);
      if (!fault) return false;
      faults.set(ctx, fault);
      log?.warn({ err: error, path: ctx.path }, 'database unavailable');
      return true;
    },

    async middleware(ctx: KoaContextWithOIDC, next: Next): Promise<void> {
      let fault: AppError | undefined;
      let html: boolean;
      try {
        await next();
        fault = faults.get(ctx);
        html = ctx.response.is('html') !== false;
      } catch (error) {
        fault = databaseFaultToAppError(error);
        if (!fault) throw error;
        log?.warn({ err: error, path: ctx.path }, 'database unavailable');
        html = ctx.accepts('json', 'html') === 'html';
      }
      if (!fault) return;
      const description = fault.message;
      ctx.status = 503;
      ctx.set('retry-after', String(fault.retryAfterSeconds));
      ctx.set('cache-control', 'no-store');
      ctx.remove('location');
      if (html) {
        ctx.type = 'html';
        ctx.body = renderErrorPage(explainProtocolError('temporarily_unavailable', description, { ...pageLanguage({ url: ctx.originalUrl, method: ctx.method, headers: ctx.headers }), selfPath: undefined }));
      } else {
        ctx.body = { error: 'temporarily_unavailable', error_description: description };
      }
    },
  };
}
