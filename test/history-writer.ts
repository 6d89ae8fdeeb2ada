/**
 * A writer of the history concurrency test (`history.test.ts`), run as a process
 * (`node --import tsx test/history-writer.ts DB RESULTS PREFIX COUNT`): records the results folder
 * COUNT times under the labels PREFIX-0 … PREFIX-(COUNT−1), one `history add` each.
 */
import { addRun } from '../src/history/add.ts';

const [db, results, prefix, count] = process.argv.slice(2) as [string, string, string, string];
for (let i = 0; i < Number(count); i++) await addRun({ db, results, label: `${prefix}-${i}`, gitCommit: null });
