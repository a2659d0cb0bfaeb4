import { randomUUID } from 'node:crypto';
import type { User } from '../../src/domain/accounts.ts';

/** A user as the services build one; `overrides` picks the fields a test is about. */
export function aUser(overrides: Partial<User> = {}): User {
  return {
    subjectId: randomUUID(),
    account: `user-${randomUUID().slice(0, 8)}`,
    displayName: 'Someone',
    email: null,
    emailVerified: false,
    studentStatus: 'unknown',
    isAdmin: false,
    status: 'active',
    locale: null,
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}
