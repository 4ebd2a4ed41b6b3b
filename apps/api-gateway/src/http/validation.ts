import { ValidationPipe, type ArgumentMetadata, type ValidationError, type ValidationPipeOptions } from '@nestjs/common';
import { validationError, type ErrorDetail } from '@pss/kernel';
import { compileQuery, type CompiledQuery } from './compiled-query';
import { lowercaseUuids } from './lowercase-uuids';

/**
 * Flattens class-validator's tree into one detail per offending field, with dotted paths for nested ones. Of a
 * field's failed rules the detail names the one the DTO declares first (usually its type): class-validator lists
 * them from the last decorator up, so that is the last. A field that fails on its own is one detail: what its
 * nested rules say of a value of the wrong shape (`{}` for an array of pages) only repeats it.
 */
export function toDetails(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const message = Object.values(error.constraints ?? {}).at(-1);
    if (message !== undefined) return [{ field, message: humanize(message, error.property, field) }];
    return toDetails(error.children ?? [], field);
  });
}

// class-validator says "property x should not exist"; say it in the API's words, with the full path (unless the
// DTO's own message already names it).
const humanize = (message: string, property: string, field: string): string => {
  if (message.startsWith(`property ${property} should not exist`)) return `${field} is not a known field`;
  return message.startsWith(field) ? message : message.replace(property, field);
};

/**
 * The ValidationPipe, with a compiled check in front of it for whole query DTOs (`@Query() query: ListQuery`):
 * a query it accepts is answered at once with what the pipe would answer, anything else goes to the pipe. Either
 * way the DTO's UUIDs come out in lower case.
 */
export class ApiValidationPipe extends ValidationPipe {
  private readonly compiledQueries = new Map<Function, CompiledQuery | undefined>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && metadata.data === undefined && metadata.metatype) {
      const accepted = this.compiledQueryOf(metadata.metatype)?.(value);
      if (accepted) return accepted;
    }
    const checked: unknown = await super.transform(value, metadata);
    return metadata.metatype && isDto(metadata.metatype) && typeof checked === 'object' && checked !== null ? lowercaseUuids(metadata.metatype, checked) : checked;
  }

  private compiledQueryOf(metatype: Function): CompiledQuery | undefined {
    if (!this.compiledQueries.has(metatype)) this.compiledQueries.set(metatype, isDto(metatype) ? compileQuery(metatype) : undefined);
    return this.compiledQueries.get(metatype);
  }
}

/** Not one of the types the ValidationPipe leaves alone. */
const isDto = (metatype: Function): metatype is new () => object => ![String, Boolean, Number, Array, Object, Buffer, Date].includes(metatype as never);

/** DTO validation: unknown fields rejected, types checked, values converted only where the DTO says so. */
export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => validationError(toDetails(errors)),
};

export const validationPipe = new ApiValidationPipe(VALIDATION_OPTIONS);
