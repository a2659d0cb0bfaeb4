import type { HttpResponse } from './http-connection.ts';

/** A response the scenario did not expect: an error status, or a body that breaks the protocol. */
export class ProtocolError extends Error {
  constructor(message: string, response?: HttpResponse) {
    super(response ? `${message} (status ${response.status}: ${response.body.slice(0, 200).replace(/\s+/g, ' ')})` : message);
    this.name = 'ProtocolError';
  }
}

export function expectStatus(response: HttpResponse, status: number, what: string): void {
  if (response.status !== status) throw new ProtocolError(`${what} answered ${response.status}, expected ${status}`, response);
}
