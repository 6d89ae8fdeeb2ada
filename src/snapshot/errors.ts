/** Exit code of a snapshot that left out a server it was asked for (the bundle of the others is written). */
export const EXIT_SNAPSHOT_INCOMPLETE = 3;
/** Exit code when no server could be snapshotted (nothing is written). */
export const EXIT_SNAPSHOT_FAILED = 1;

/**
 * Thrown after a snapshot's report is printed, when a server failed: exit 3 when a bundle of the
 * others was written, 1 when nothing was (every server failed, or eval/diff needed them all).
 */
export class SnapshotIncomplete extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT_SNAPSHOT_INCOMPLETE | typeof EXIT_SNAPSHOT_FAILED,
  ) {
    super(message);
    this.name = 'SnapshotIncomplete';
  }
}
