import { describe, expect, it } from 'vitest';
import { changeMark } from '../helpers/database-snapshot.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

// The contract fuzzer takes a full snapshot only when this mark moves: it must move on every kind of write.
describe.each(TEST_ENGINES)('the change mark of the test snapshots on %s', (engine) => {
  const migrated = useMigratedStore(engine);

  it('stays put for reads and moves for an insert, an update and a delete', async () => {
    const { db } = migrated;
    const start = await changeMark(db, engine);
    await db.selectFrom('instance_settings').selectAll().execute();
    expect(await changeMark(db, engine)).toBe(start);

    await db.insertInto('instance_settings').values({ name: 'CHANGE_MARK', value: 'one', created_at: 1 }).execute();
    const inserted = await changeMark(db, engine);
    expect(inserted).not.toBe(start);

    await db.updateTable('instance_settings').set({ value: 'two' }).where('name', '=', 'CHANGE_MARK').execute();
    const updated = await changeMark(db, engine);
    expect(updated).not.toBe(inserted);

    await db.deleteFrom('instance_settings').where('name', '=', 'CHANGE_MARK').execute();
    expect(await changeMark(db, engine)).not.toBe(updated);
  });
});
