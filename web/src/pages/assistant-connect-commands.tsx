import { CopyButton } from '../components/copy-button.tsx';

/** For a native client: the exact commands that connect an MCP assistant to Sesame's MCP server with this client id. */
export function AssistantConnectCommands({ issuer, clientId }: { issuer: string; clientId: string }) {
  const mcpUrl = `${issuer}/mcp`;
  const claudeCode = `claude mcp add --transport http sesame ${mcpUrl} --client-id ${clientId}`;
  const json = JSON.stringify({ mcpServers: { sesame: { type: 'http', url: mcpUrl, oauth: { clientId } } } }, null, 2);
  return (
    <>
      <h4>Connect an AI assistant</h4>
      <p class="muted small">
        The person signs in on Sesame's page and chooses what the assistant may do; no password reaches it. Any loopback port works.
      </p>
      <p>Claude Code:</p>
      <div class="copy-row">
        <pre><code>{claudeCode}</code></pre>
        <CopyButton text={claudeCode} label="Copy the Claude Code command" />
      </div>
      <p>Other MCP clients (server URL and client ID; no secret):</p>
      <div class="copy-row">
        <pre><code>{json}</code></pre>
        <CopyButton text={json} label="Copy the JSON configuration" />
      </div>
    </>
  );
}
