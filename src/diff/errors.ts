/** Exit code of a diff (or gate) whose changes need a person's review. */
export const EXIT_REVIEW = 100;

/**
 * Thrown by `backpack diff` after its report is printed, when the change moves an existing tool's
 * cases beyond the threshold. The CLI maps it to exit code 100 (`exitCode`).
 */
export class ReviewRequired extends Error {
  readonly exitCode = EXIT_REVIEW;

  constructor(message: string) {
    super(message);
    this.name = 'ReviewRequired';
  }
}
