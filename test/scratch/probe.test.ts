import { it } from 'vitest';
import { createTestContext } from '../helpers/context.ts';
import { createAgentClient, createConsoleClient } from '../api/helpers/api-clients.ts';
import { createAccounts, PASSWORD } from '../api/helpers/users.ts';

it('probe', async () => {
  const ctx = await createTestContext('sqlite');
  await createAccounts(ctx.services, ['rita', 'boss'], ['boss']);
  const c = createConsoleClient(ctx.app);
  await c.login('rita', PASSWORD);
  const admin = createAgentClient(ctx.app);
  await admin.login('boss', PASSWORD);
  const r = await admin.call('GET', '/admin/audit-logs');
  console.log(JSON.stringify(r.body.auditLogs.map((e: any) => [e.action, e.surface, e.actorAccount, e.after])));
  await ctx.close();
});
