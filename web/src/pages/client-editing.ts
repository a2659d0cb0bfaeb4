import { api, segment } from '../api/client.ts';
import type { Client } from '../api/types.ts';

/** Where a client lives in the management API. */
export const clientApiPath = (client: Pick<Client, 'projectId' | 'clientId'>, rest = '') =>
  `/projects/${segment(client.projectId)}/clients/${segment(client.clientId)}${rest}`;

export const fetchClient = (projectId: string, clientId: string) =>
  api.get<{ client: Client }>(clientApiPath({ projectId, clientId })).then((r) => r.client);

export interface ClientSectionProps {
  client: Client;
  writable: boolean;
  onNewVersion: (client: Client) => void;
}
