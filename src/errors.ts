import { renderText, type NameOperation, type PointedText } from './domain/pointed-text.ts';

/** The closed list of error codes and their HTTP status: the only place a status is chosen. */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_client_metadata: 400,
  login_required: 401,
  invalid_credentials: 401,
  mfa_required: 401,
  forbidden: 403,
  mfa_enrolment_required: 403,
  csrf_failed: 403,
  insufficient_scope: 403,
  browser_only: 403,
  reauthentication_required: 403,
  use_my_account: 403,
  not_found: 404,
  version_conflict: 409,
  project_archived: 409,
  member_exists: 409,
  last_owner: 409,
  invalid_client_type: 409,
  secret_limit_exceeded: 409,
  idempotency_key_reused: 409,
  project_not_archived: 409,
  last_sign_in_method: 409,
  request_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  directory_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorBody {
  error: ErrorCode;
  error_description: string;
  field_errors?: Record<string, string>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The description as the use case wrote it: operations it names are pointers each surface words itself. */
  readonly description: string | PointedText;

  constructor(code: ErrorCode, description: string | PointedText, options: { fieldErrors?: Record<string, string> | undefined; retryAfterSeconds?: number | undefined } = {}) {
    super(renderText(description));
    this.code = code;
    this.description = description;
    this.fieldErrors = options.fieldErrors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The same refusal, with the operations its description names in one surface's words. */
  inWords(name: NameOperation): AppError {
    if (typeof this.description === 'string') return this;
    return new AppError(this.code, renderText(this.description, name), { fieldErrors: this.fieldErrors, retryAfterSeconds: this.retryAfterSeconds });
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return {
      error: this.code,
      error_description: this.message,
      ...(this.fieldErrors && Object.keys(this.fieldErrors).length > 0 ? { field_errors: this.fieldErrors } : {}),
    };
  }
}
