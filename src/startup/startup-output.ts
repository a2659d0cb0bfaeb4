import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';
import type { PreparedInstance } from './prepare-instance.ts';

/** What a person starting Sesame needs to see: where it is, and the one-time admin password. */
export function printStartup(config: Config, prepared: PreparedInstance, address: AddressInfo | string | null): void {
  const listening = typeof address === 'object' && address ? `${address.address}:${address.port}` : String(address);
  const lines = [
    `sesame: listening on ${listening}`,
    `  issuer:          ${config.issuer}`,
    `  discovery:       ${config.issuer}/.well-known/openid-configuration`,
    `  console:         ${config.issuer}/console`,
    `  agent api:       ${config.agentApiEnabled ? `${config.issuer}/api/agent (guide: ${config.issuer}/api/agent/instructions)` : 'disabled (set OIDC_AGENT_API_ENABLED=true to mount /api/agent)'}`,
    `  mcp:             ${config.mcpEnabled ? `${config.issuer}/mcp` : 'disabled (set SESAME_MCP_ENABLED=true to mount /mcp)'}`,
  ];
  for (const name of prepared.instanceSecrets.generated) {
    lines.push(`  warning: ${name} was not set; generated one and stored it in the database (set it explicitly in production)`);
  }
  if (prepared.bootstrap) {
    lines.push(`  created administrator account "${prepared.bootstrap.admin.account}"`);
    if (prepared.bootstrap.generatedPassword) {
      lines.push(`  its generated password (shown this once): ${prepared.bootstrap.generatedPassword}`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
