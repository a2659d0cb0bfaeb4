/**
 * NUL cannot be stored in PostgreSQL text (a query carrying one fails), and an unpaired surrogate
 * would be stored as U+FFFD. No stored value contains either, so text with one can only be refused
 * (request bodies) or not found (ids from cookies, URLs and protocol parameters).
 */
export const UNSTORABLE_TEXT = /\u0000|\p{Cs}/u;

export const isStorableText = (value: string): boolean => !UNSTORABLE_TEXT.test(value);
