import { describe, expect, it } from 'vitest';
import { isMetadataDocumentClientId, isPublicAddress, metadataDocumentFetch, MetadataDocumentRefused } from './assistant-metadata-documents.ts';

describe('client ID metadata documents', () => {
  it('takes an https URL with a path as a document, and nothing else', () => {
    expect(isMetadataDocumentClientId('https://assistant.example.com/client.json')).toBe(true);
    for (const id of ['https://assistant.example.com/', 'https://assistant.example.com', 'http://assistant.example.com/client.json', 'cli_abc123', 'rp-web.imported~1']) {
      expect(isMetadataDocumentClientId(id)).toBe(false);
    }
  });

  it('calls only public addresses public', () => {
    for (const address of ['93.184.216.34', '2606:4700::1111', '8.8.8.8']) expect(isPublicAddress(address)).toBe(true);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '224.0.0.1', 'not-an-address']) {
      expect(isPublicAddress(address)).toBe(false);
    }
  });

  it('refuses a host that resolves to a loopback address unless its host:port is allowed, before connecting', async () => {
    const refused = await metadataDocumentFetch({ assistantMetadata: { enabled: true, allowedHosts: [] } })('https://localhost:1/client.json', {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MetadataDocumentRefused);
    expect((refused as MetadataDocumentRefused).reason).toBe('private_address');
    // Allowed: the check passes, and the connection (nobody listens on port 1) fails as a fetch failure instead.
    const allowed = await metadataDocumentFetch({ assistantMetadata: { enabled: true, allowedHosts: ['localhost:1'] } })('https://localhost:1/client.json', {}).catch((error: unknown) => error);
    expect((allowed as MetadataDocumentRefused).reason).toBe('fetch_failed');
  });
});
