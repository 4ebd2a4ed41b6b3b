import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

// class-transformer keeps `@Type` metadata in a module its index does not export, and ships that module's typings
// apart from its code: required from where its decorators store into it, typed from its declaration.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/** The class `@Type(() => X)` names for a property, declared on the DTO or inherited; undefined without one. */
export function nestedTypeOf(dto: Function, property: string): Function | undefined {
  return defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction();
}
