// Errors caused by input or environment rather than by benchline: printed as one clear message, no stack.
export class UserError extends Error {
  constructor(message, { exitCode = 2 } = {}) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** A job that cannot run on this machine (a subject said so with exit 77, or its tool is missing): reported as skipped, with why. */
export class SkipJob extends Error {
  constructor(message) {
    super(message);
    this.name = 'SkipJob';
  }
}
