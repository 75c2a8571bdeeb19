// Kysely's dialect adapter for ClickHouse: no RETURNING, no transactional DDL, and no lock for
// Kysely's Migrator: ClickHouse has no advisory lock, so acquireMigrationLock refuses (running two
// deploys' migrations at once without a lock would be a silent race).
import { DialectAdapterBase } from 'kysely';
import { ChwireConfigError } from '../errors.js';

export class ChwireAdapter extends DialectAdapterBase {
  override get supportsTransactionalDdl(): boolean { return false; }
  override get supportsReturning(): boolean { return false; }
  override async acquireMigrationLock(): Promise<void> {
    throw new ChwireConfigError('chwire/kysely: Kysely\'s Migrator needs a lock ClickHouse does not have; run migrations one deploy at a time with a tool that keeps its own lock');
  }
  override async releaseMigrationLock(): Promise<void> { /* never acquired */ }
}
