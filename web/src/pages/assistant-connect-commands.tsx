import { CopyButton } from '../components/copy-button.tsx';
import { t } from '../i18n.ts';

/** For a native client: the exact commands that connect an MCP assistant to Sesame's MCP server with this client id. */
export function AssistantConnectCommands({ issuer, clientId }: { issuer: string; clientId: string }) {
  const mcpUrl = `${issuer}/mcp`;
  const claudeCode = `claude mcp add --transport http sesame ${mcpUrl} --client-id ${clientId}`;
  const json = JSON.stringify({ mcpServers: { sesame: { type: 'http', url: mcpUrl, oauth: { clientId } } } }, null, 2);
  return (
    <>
      <h4>{t('console.connectAssistant.title')}</h4>
      <p class="muted small">
        {t('console.connectAssistant.intro')}
      </p>
      <p>{t('console.connectAssistant.claudeCode')}</p>
      <div class="copy-row">
        <pre><code>{claudeCode}</code></pre>
        <CopyButton text={claudeCode} label={t('console.connectAssistant.copyClaude')} />
      </div>
      <p>{t('console.connectAssistant.other')}</p>
      <div class="copy-row">
        <pre><code>{json}</code></pre>
        <CopyButton text={json} label={t('console.connectAssistant.copyJson')} />
      </div>
    </>
  );
}
