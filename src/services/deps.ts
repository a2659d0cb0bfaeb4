import type { Clock } from '../domain/clock.ts';
import type { Db } from '../storage/database.ts';

export interface ServiceDeps {
  db: Db;
  clock: Clock;
}
