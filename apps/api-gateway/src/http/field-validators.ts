import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, IsUUID, registerDecorator, ValidateIf, ValidateNested, type ValidationOptions } from 'class-validator';

/**
 * The field may be left out, but when present it must be valid: unlike `@IsOptional()`, a `null` is checked
 * (and refused) rather than waved through as absent.
 */
export const Omittable = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);

/** An id that may be left out (`@Omittable`), a UUID when present; the 400 names the field as the API does. */
export const OmittableUuid = (): PropertyDecorator => Stacked(Omittable(), IsUUID('all', { message: ({ property }) => `${property} must be a UUID` }));

/** The field may be left out or be `null`; anything else is checked. */
export const Nullable = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined && value !== null);

/**
 * Rules as they would be stacked above a field, read top down. TypeScript applies stacked decorators bottom up,
 * and a 400 names the first rule the field breaks in reading order (`toDetails`); `applyDecorators` applies its
 * list in order, so a rule list written for it would name the last one (a missing string "must be shorter than …").
 */
export const Stacked = (...rules: PropertyDecorator[]): PropertyDecorator => applyDecorators(...[...rules].reverse());

/**
 * Each item is an object validated as `type`. ValidateNested alone waves through an item that is itself an
 * array (`[[]]`), which then reaches the deciders as a malformed item: every array of nested DTOs says this.
 */
export const EachNested = (type: () => Function): PropertyDecorator =>
  Stacked(
    IsObject({ each: true, message: ({ property }) => `each item of ${property} must be an object` }),
    ValidateNested({ each: true }),
    Type(type),
  );

/** An IANA time zone name the runtime knows, e.g. `America/Sao_Paulo`. */
export function IsTimeZone(options?: ValidationOptions): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName: property as string,
      options: { message: `${String(property)} must be an IANA time zone such as America/Sao_Paulo`, ...options },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
          try {
            new Intl.DateTimeFormat('en-US', { timeZone: value });
            return true;
          } catch {
            return false;
          }
        },
      },
    });
}
