import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { validationError, type ErrorDetail } from '@pss/kernel';

/** Flattens class-validator's tree into one detail per offending field, with dotted paths for nested ones. */
export function toDetails(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message: humanize(message, error.property, field) }));
    return [...own, ...toDetails(error.children ?? [], field)];
  });
}

// class-validator says "property x should not exist"; say it in the API's words, with the full path.
const humanize = (message: string, property: string, field: string): string =>
  message.startsWith(`property ${property} should not exist`) ? `${field} is not a known field` : message.replace(property, field);

/** DTO validation: unknown fields rejected, types checked, values converted only where the DTO says so. */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => validationError(toDetails(errors)),
});
