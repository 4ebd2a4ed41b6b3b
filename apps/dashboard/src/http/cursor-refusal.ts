import { DomainError } from '@pss/kernel';

/** A list read refused for its cursor (one the list never gave: an edited address); the page says so rather than fail. */
export const isCursorRefusal = (error: unknown): boolean =>
  error instanceof DomainError && error.code === 'validation_error' && (error.details ?? []).some((detail) => detail.field === 'cursor');
