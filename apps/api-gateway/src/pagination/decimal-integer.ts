import { Transform, type TransformFnParams } from 'class-transformer';

/**
 * A query's integer as people write one: decimal digits. `Number()` (what `@Type(() => Number)` does) also reads
 * `1e2`, `0x10`, ` 5` and `1.0` as 100, 16, 5 and 1; those stay strings here, and `@IsInt` refuses them.
 */
export const decimalInteger = ({ value }: Pick<TransformFnParams, 'value'>): unknown => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value);

export const DecimalInteger = (): PropertyDecorator => Transform(decimalInteger);
