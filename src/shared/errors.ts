/**
 * Typed errors thrown by services. One mapper (http/error-handler.ts) turns them into the
 * contract's JSON shapes; nothing else formats an error response.
 */
export type FieldMessages = Record<string, string[]>

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export class NotFoundError extends AppError {
  constructor() {
    super(404, 'Resource not found.')
  }
}

export class ForbiddenError extends AppError {
  constructor() {
    super(403, "You don't have access to this feature.")
  }
}

export class ValidationError extends AppError {
  constructor(readonly fields: FieldMessages) {
    super(422, 'The given data was invalid.')
  }
}

/**
 * Collects per-field messages so every failing field is reported at once.
 * A field that already failed is skipped by later rules (`has`), so one bad value
 * does not produce a cascade of follow-up messages.
 */
export class FieldErrors {
  private readonly fields: FieldMessages = {}

  add(field: string, message: string): void {
    const list = (this.fields[field] ??= [])
    if (!list.includes(message)) list.push(message)
  }

  /** True when `field` itself has failed (not counting parts nested under it). */
  hasOwn(field: string): boolean {
    return field in this.fields
  }

  /** True when `field` or anything nested under it has failed. */
  has(field: string): boolean {
    return Object.keys(this.fields).some((f) => f === field || f.startsWith(`${field}.`))
  }

  get messages(): FieldMessages {
    return this.fields
  }

  get empty(): boolean {
    return Object.keys(this.fields).length === 0
  }

  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.fields)
  }
}

export class UnauthenticatedError extends AppError {
  constructor() {
    super(401, 'Unauthenticated.')
  }
}

export class TooManyAttemptsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too Many Attempts.')
  }
}
