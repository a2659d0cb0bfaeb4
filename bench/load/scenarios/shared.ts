import { HttpConnection } from '../http-connection.ts';
import type { OidcFixture, Target } from '../targets.ts';

/** The scopes of the code and single sign-on flows: an ID token and profile claims, no refresh token. */
export const SIGN_IN_SCOPE = 'openid profile email';

export function oidcFixtureOf(target: Target): OidcFixture {
  if (!target.oidc) throw new Error(`${target.label} has no OIDC fixture`);
  return target.oidc;
}

/** One keep-alive connection per virtual user, as a load tool opens them. */
export const connectionsFor = (target: Target, count: number) => Array.from({ length: count }, () => new HttpConnection(target.baseUrl));

/** Workers that fill a pool before the timed phase: several in parallel, so minting takes about as long as using. */
export const minterCount = (concurrency: number) => Math.max(2, Math.min(concurrency, 8));

/** Splits `total` units of work over `workers` parallel loops. */
export async function inParallel(total: number, workers: number, work: (worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (next < total) {
        next += 1;
        await work(worker);
      }
    }),
  );
}

/** A first-in first-out pool of prepared items, shared by the virtual users. */
export class Pool<T> {
  private items: T[] = [];
  private head = 0;

  add(item: T): void {
    this.items.push(item);
  }

  take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head] = undefined as T;
    this.head += 1;
    if (this.head > 10_000 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Drops what is left (codes would expire before the next phase). */
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
