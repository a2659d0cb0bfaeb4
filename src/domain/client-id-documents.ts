/**
 * Whether a client id names a client ID metadata document (DESIGN 15): an https URL with a path. Registered
 * client ids are never URLs, so such an id is always an assistant that belongs to no project.
 */
export function isMetadataDocumentClientId(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false;
  const url = URL.parse(clientId);
  return url !== null && url.pathname !== '/' && url.pathname !== '';
}
