import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUuid, validationError } from '@pss/kernel';

/** Path ids are UUIDs: anything else is 400 (not 404), so a typo is told apart from a missing resource. */
@Injectable()
export class UuidPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw validationError([{ field: 'id', message: 'id must be a UUID' }]);
    return value.toLowerCase();
  }
}
