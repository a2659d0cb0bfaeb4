import { createQueryId, type Compilable, type CompiledQuery } from 'kysely';

/**
 * Kysely builds an immutable query tree and compiles it to SQL on every call: about an eighth of a
 * protocol request's main-thread time in the bench's CPU profiles. A statement whose shape never changes
 * is compiled once here, with a placeholder for each value that varies; each run fills the values in.
 *
 * `build` receives `value(slot)`, to use wherever a varying value goes; every slot must be used.
 */
export function precompile<Slot extends string, Row>(
  slots: readonly Slot[],
  build: (value: (slot: Slot) => never) => Compilable<Row>,
): (values: Record<Slot, unknown>) => CompiledQuery<Row> {
  const placeholders = new Map<object, Slot>(slots.map((slot) => [{ placeholder: slot }, slot]));
  const placeholderOf = new Map([...placeholders].map(([placeholder, slot]) => [slot, placeholder]));
  // The query tree goes with each run: the write watcher (write-watching-dialect.ts) reads its table from it.
  const { sql, parameters, query } = build((slot) => placeholderOf.get(slot) as never).compile();
  const slotAt = parameters.map((parameter) => (typeof parameter === 'object' && parameter !== null ? placeholders.get(parameter) : undefined));
  const unused = slots.filter((slot) => !slotAt.includes(slot));
  if (unused.length > 0) throw new Error(`precompile: slot(s) ${unused.join(', ')} not used in ${sql}`);
  return (values) => ({
    sql,
    query,
    queryId: createQueryId(),
    parameters: parameters.map((parameter, index) => {
      const slot = slotAt[index];
      return slot === undefined ? parameter : values[slot];
    }),
  });
}
