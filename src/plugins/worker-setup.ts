/**
 * What a worker thread of an evaluation runs first when the command line activated plugins or
 * retrieval services (`eval/parallel.ts`, `WorkerSetup`): the same modules, checked by hash, and the
 * same services, registered in this thread. Report formats are not registered: a worker writes no
 * report.
 */
import { activateExtensions, type ExtensionSpec, IGNORED_REPORT_FORMATS, registrars } from './activate.ts';

export async function setupWorker(spec: ExtensionSpec): Promise<void> {
  await activateExtensions(spec, registrars(IGNORED_REPORT_FORMATS));
}
