// The one error the console shows for a failed API call: the API's one error shape
// {error: {code, message, details?}} (docs/api.md), a network failure (status 0) or an answer that is not JSON.
import type { components } from './schema';

export type ErrorBody = components['schemas']['Error'];

/** What a person reads when a write's precondition failed (412) or was missing (428): someone else saved first. */
export const CHANGED_SINCE_OPENED = 'the document changed since you opened it';

/** An error the API answered (or a network failure, with status 0). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** The error's details, as answered (a refusal's rules at fault, a validation's issues, a precondition's current tag). */
  readonly details: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** A write refused because what it was based on is no longer the newest (412), or it named no base (428). */
  get changedSinceOpened(): boolean {
    return this.status === 412 || this.status === 428;
  }
}

/** Example: `isErrorBody({error: {code: 'NOT_FOUND', message: 'no such document'}})` is true. */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = value.error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}

/** The ApiError for an error answer: its body's code and message, or HTTP_ERROR when the body is not the error shape. */
export function apiErrorOf(status: number, body: unknown): ApiError {
  if (!isErrorBody(body)) return new ApiError(status, 'HTTP_ERROR', `the server answered ${status}`);
  const { code, message, details } = body.error;
  // A failed precondition is said the same way on every write, with the server's own words after it.
  const said = status === 412 || status === 428 ? `${CHANGED_SINCE_OPENED}: ${message}` : message;
  return new ApiError(status, code, said, details);
}
