// Errors caused by input or environment rather than by benchline: printed as one clear message, no stack.
export class UserError extends Error {
  constructor(message, { exitCode = 2 } = {}) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}
