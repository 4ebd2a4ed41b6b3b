import { getMetadataStorage } from 'class-validator';

/**
 * UUIDs are case-insensitive but every id is stored in lower case, so an id a client wrote in upper case would
 * match nothing (an empty list, a 404). The DTO fields checked with `@IsUUID` are lowered once they pass, the same
 * way the path's `UuidPipe` does.
 */
export function lowercaseUuids<T extends object>(dto: Function, value: T): T {
  const record = value as Record<string, unknown>;
  for (const field of uuidFieldsOf(dto)) {
    const current = record[field];
    if (typeof current === 'string') record[field] = current.toLowerCase();
    else if (Array.isArray(current)) record[field] = current.map((item) => (typeof item === 'string' ? item.toLowerCase() : item));
  }
  return value;
}

const uuidFields = new Map<Function, string[]>();

/** The DTO's properties with an `@IsUUID` rule (alone or on each item), from class-validator's own metadata. */
export function uuidFieldsOf(dto: Function): string[] {
  let fields = uuidFields.get(dto);
  if (!fields) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);
    fields = [...new Set(metadatas.filter((metadata) => metadata.name === 'isUuid').map((metadata) => metadata.propertyName))];
    uuidFields.set(dto, fields);
  }
  return fields;
}
