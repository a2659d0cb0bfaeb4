import { api, unwrap } from '../api/client.ts';
import type { Client } from '../api/types.ts';

/** The path parameters that name a client in the management API. */
export const clientParams = (client: Pick<Client, 'projectId' | 'clientId'>) => ({ path: { projectId: client.projectId, clientId: client.clientId } });

export const fetchClient = (projectId: string, clientId: string) =>
  unwrap(api.GET('/projects/{projectId}/clients/{clientId}', { params: clientParams({ projectId, clientId }) })).then((r) => r.client);

export interface ClientSectionProps {
  client: Client;
  writable: boolean;
  onNewVersion: (client: Client) => void;
}
