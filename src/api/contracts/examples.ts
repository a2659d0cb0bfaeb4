import type { AuditLogJson } from './audit.ts';
import type { ClientJson } from './clients.ts';
import type { MemberJson } from './members.ts';
import type { ProjectJson } from './projects.ts';

// Sample values for the OpenAPI documents; a test validates each against its schema.

export const exampleTime = '2026-11-21T09:30:00.000Z';
export const exampleLaterTime = '2026-11-21T10:15:00.000Z';

export const exampleProject: ProjectJson = {
  projectId: 'prj_4fJ9kQ2mX8vR1tLp',
  name: 'Course portal',
  description: 'Sign-in for the course portal',
  status: 'active',
  version: 3,
  role: 'owner',
  capabilities: ['read', 'write_clients', 'manage_members', 'manage_project'],
  createdAt: exampleTime,
  updatedAt: exampleLaterTime,
};

export const exampleMember: MemberJson = {
  subjectId: '6f1c2d8e-3b4a-4c5d-9e6f-7a8b9c0d1e2f',
  account: 'bob',
  displayName: 'Bob Builder',
  role: 'maintainer',
  createdAt: exampleLaterTime,
};

export const exampleSecretValue = 'Vq3L8xT1mZ7pK2rN9sB4dF6hJ0wY5cG8eA1uQ3iO7kM';

export const exampleClient: ClientJson = {
  clientId: 'cli_Q8mZ3vK1xP7rT2nB5cLd',
  projectId: exampleProject.projectId,
  clientType: 'web',
  displayName: 'Course portal',
  description: '',
  redirectUris: ['https://portal.example.com/callback'],
  postLogoutRedirectUris: ['https://portal.example.com/'],
  scopeWhitelist: ['openid', 'profile', 'email'],
  requirePkce: true,
  claimsInIdToken: false,
  status: 'active',
  revision: 1,
  secrets: [{ secretId: 'sec_7HkP2wQ9zR4mN1xT', status: 'active', createdAt: exampleTime, expiresAt: null, lastUsedAt: null }],
  clientVersion: 1,
  createdAt: exampleTime,
  updatedAt: exampleTime,
};

export const exampleSpaClient: ClientJson = {
  ...exampleClient,
  clientId: 'cli_Z2pR7kW4nT9vB1xQ6mLs',
  clientType: 'spa',
  displayName: 'Course portal (browser app)',
  redirectUris: ['https://app.example.com/callback'],
  postLogoutRedirectUris: [],
  scopeWhitelist: ['openid', 'profile'],
  secrets: [],
};

export const exampleUser = {
  subjectId: exampleMember.subjectId,
  account: 'bob',
  displayName: 'Bob Builder',
  email: 'bob@example.com',
  emailVerified: true,
  studentStatus: 'active' as const,
  isAdmin: false,
  status: 'active' as const,
  groups: ['staff'],
  createdAt: exampleTime,
  updatedAt: exampleTime,
};

export const exampleSessionUser = { subjectId: '0b7e6c1a-2f3d-4e5a-8b9c-1d2e3f4a5b6c', account: 'alice', displayName: 'Alice Admin', isAdmin: false };

export const exampleAuditLog: AuditLogJson = {
  auditId: 'aud_mi8x2k1c_Hq7Zp3LmWs',
  at: exampleLaterTime,
  actorSubjectId: exampleSessionUser.subjectId,
  actorAccount: exampleSessionUser.account,
  surface: 'agent',
  action: 'client.revise',
  targetType: 'client',
  targetId: exampleClient.clientId,
  before: { redirectUris: ['https://portal.example.com/callback'] },
  after: { redirectUris: ['https://portal.example.com/callback', 'https://portal.example.com/auth/callback'] },
  ip: '203.0.113.7',
  viaClientId: null,
  viaClientName: null,
};
