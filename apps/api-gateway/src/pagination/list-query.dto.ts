import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { DecimalInteger } from './decimal-integer';
import { MAX_PAGE_SIZE } from './paginate';

/** Query parameters every list operation takes. */
export class ListQuery {
  @IsOptional()
  @DecimalInteger()
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(MAX_PAGE_SIZE, { message: 'limit must be an integer from 1 to 100' })
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  /** Partners only (orgs:manage): act on a child organization. */
  @IsOptional()
  @IsUUID('all', { message: 'org_id must be a UUID' })
  org_id?: string;
}
