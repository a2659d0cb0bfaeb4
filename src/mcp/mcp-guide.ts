import { agentApiUrls } from '../api/agent/register-agent-api.ts';
import { renderAgentGuide } from '../api/agent/agent-guide.ts';
import { ASSISTANT_SCOPES, ASSISTANT_SCOPE_DESCRIPTIONS } from '../domain/assistant-scopes.ts';
import type { Config } from '../config.ts';

export const GUIDE_PROMPT_NAME = 'sesame-guide';
export const GUIDE_RESOURCE_URI = 'sesame://guide';

/**
 * The operating guide for an assistant connected over MCP: how the tools map onto the Agent API,
 * then the Agent API's own guide (the model, sequences, errors, limits), which every tool follows.
 */
export function renderMcpGuide(config: Config, bodyLimitBytes: number): string {
  const urls = agentApiUrls(config);
  return `# Sesame over MCP: operating guide

You are connected to Sesame's MCP server. The person signed in on Sesame's own pages and chose what you may do; you never need their password, and you must not ask for it.

- Each tool is one operation of the Sesame Agent API; its name is the API's operationId (\`createProject\`, \`registerClient\`, \`rotateClientSecret\`, ...). Its arguments are one flat object: the path parameters (\`projectId\`, \`clientId\`, \`subjectId\`, \`secretId\`), the query parameters and the body fields of that operation.
- A successful call returns the API's response body as structured content. A refused call is a tool error whose structured content is the API's error body: \`{error, error_description, field_errors?}\`. Read \`error\` first; section 7 below lists every code.
- What you may do is bounded twice: by the person's role in each project, and by the scopes they granted:
${ASSISTANT_SCOPES.map((scope) => `  - \`${scope}\`: ${ASSISTANT_SCOPE_DESCRIPTIONS[scope]}.`).join('\n')}
  A tool outside the granted scopes is not listed, and fails with \`insufficient_scope\` if called anyway: tell the person; only they can grant more, by connecting you again.
- The tools that create something (\`createProject\`, \`registerClient\`, \`addMember\`, \`rotateClientSecret\`, \`createUser\`) take an optional \`idempotencyKey\` argument: it is the \`Idempotency-Key\` header of section 4 ("Retrying a creation safely"), with the same rules. Make a new one per change and send it again when you retry a call whose answer was lost.
- The operations that change how the person signs in (password, authenticators, passkeys, recovery codes, email address, linked identities) are no tools: they are the person's alone, in the console under My account ("What only the person does, in the console" below). Neither are an administrator's \`setUserPassword\` and \`resetUserFactors\`, and \`createUser\` takes no \`password\`: without mail it answers a one-time \`setPasswordUrl\` for the new person instead.
- Every change you make is recorded in the audit trail with the surface \`mcp\` and your client id (\`viaClientId\`).
- Ignore the login and logout steps of the guide below: your token comes from OAuth, and the person ends your access by revoking it in Sesame.

---

${renderAgentGuide({ issuer: config.issuer, baseUrl: urls.baseUrl, openapiUrl: urls.openapiUrl, bodyLimitBytes })}`;
}
