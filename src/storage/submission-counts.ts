/**
 * Submissions counted by status, for the metrics endpoint (src/server/metrics.ts). Read from the
 * database at each scrape, so every instance on one PostgreSQL reports the same counts.
 */
import type { Db } from './tables.js';

/**
 * The number of submissions in each status (DESIGN.md section 5 "States"), statuses with none
 * left out.
 */
export async function countSubmissionsByStatus(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('submissions').select(['status', db.fn.countAll<number | string | bigint>().as('count')]).groupBy('status').execute();
  return new Map(rows.map((row) => [row.status, Number(row.count)]));
}
