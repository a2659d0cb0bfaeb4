import type { ComponentChildren } from 'preact';

interface DataTableProps {
  /** Read by screen readers only: the page's heading already says what the table is. */
  caption: string;
  columns: string[];
  /** The last column's name, heard but not seen, when the rows end in buttons. */
  actions?: string | false;
  /** The rows. */
  children: ComponentChildren;
}

/** The console's table of records; its cells carry data-label, which a narrow screen shows in place of the header. */
export function DataTable({ caption, columns, actions, children }: DataTableProps) {
  return (
    <table class="data-table">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span class="visually-hidden">{actions}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
