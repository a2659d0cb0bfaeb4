const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/** The token of an `Authorization: Bearer <token>` header (RFC 6750), or undefined when there is none. */
export const bearerTokenOf = (authorization: string | undefined): string | undefined => BEARER.exec(authorization ?? '')?.[1];
