import { byOperationId, renderText, type NameOperation, type PointedText } from '../domain/pointed-text.ts';
import type { AnyOperation } from './operation.ts';

export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** How a REST surface names an operation: its method and path (`GET /projects/{projectId}`); one it does not serve, by its id. */
export function restWords(operations: readonly Pick<AnyOperation, 'operationId' | 'method' | 'path'>[]): NameOperation {
  const byId = new Map(operations.map((operation) => [operation.operationId, `\`${operation.method} ${toOpenApiPath(operation.path)}\``]));
  return (operationId) => byId.get(operationId) ?? byOperationId(operationId);
}

/** A text in REST words. */
export const inRestWords = (text: string | PointedText, operations: readonly Pick<AnyOperation, 'operationId' | 'method' | 'path'>[]): string => renderText(text, restWords(operations));

