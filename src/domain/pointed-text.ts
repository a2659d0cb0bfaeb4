/**
 * Text that names operations without choosing a surface's words for them. A use case writes
 * `said\`list them with ${see('listUsers')}\``; the REST surfaces render the pointer as the operation's
 * method and path (`GET /admin/users`), the MCP server as its tool name (`listUsers`).
 */

/** A reference to one operation, by its operationId. */
export interface OperationPointer {
  readonly operationId: string;
}

export type TextPart = string | OperationPointer;

/** A sentence whose operation references each surface renders in its own words. */
export interface PointedText {
  readonly parts: readonly TextPart[];
}

/** How a surface names an operation: `GET /admin/users` for REST, `listUsers` for MCP. */
export type NameOperation = (operationId: string) => string;

export const see = (operationId: string): OperationPointer => ({ operationId });

const isPointer = (value: unknown): value is OperationPointer => typeof value === 'object' && value !== null && typeof (value as OperationPointer).operationId === 'string';

/** A template whose pointer values (`see(operationId)`) stay pointers; any other value becomes text. */
export function said(strings: TemplateStringsArray, ...values: ReadonlyArray<string | number | OperationPointer | PointedText>): PointedText {
  const parts: TextPart[] = [];
  strings.forEach((text, index) => {
    if (text) parts.push(text);
    if (index >= values.length) return;
    const value = values[index]!;
    if (isPointer(value)) parts.push(value);
    else if (isPointedText(value)) parts.push(...value.parts);
    else parts.push(String(value));
  });
  return { parts };
}

export const isPointedText = (value: unknown): value is PointedText => typeof value === 'object' && value !== null && Array.isArray((value as PointedText).parts);

/** Where no surface chooses (logs, the command line): the operationId in backticks. */
export const byOperationId: NameOperation = (operationId) => `\`${operationId}\``;

/** The text in one surface's words. */
export function renderText(text: string | PointedText, name: NameOperation = byOperationId): string {
  if (typeof text === 'string') return text;
  return text.parts.map((part) => (typeof part === 'string' ? part : name(part.operationId))).join('');
}

/** The operations a text points to (tests check that each exists). */
export const pointersOf = (text: string | PointedText): string[] => (typeof text === 'string' ? [] : text.parts.filter(isPointer).map((part) => part.operationId));
