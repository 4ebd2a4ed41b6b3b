import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { DecimalInteger } from '../../pagination/decimal-integer';
import { CSP_MODES, type CspMode } from './store-csp';

/** How long an authorized script's content must have stayed the same before its `integrity` is offered. */
export const DEFAULT_UNCHANGED_DAYS = 30;
const UNCHANGED_DAYS_MESSAGE = 'unchanged_days must be an integer from 1 to 365';

export class StoreCspQuery {
  @IsOptional()
  @IsUUID('all', { message: 'page_id must be a UUID' })
  page_id?: string;

  @IsOptional()
  @IsIn(CSP_MODES, { message: `mode must be one of ${CSP_MODES.join(', ')}` })
  mode?: CspMode;

  @IsOptional()
  @DecimalInteger()
  @IsInt({ message: UNCHANGED_DAYS_MESSAGE })
  @Min(1, { message: UNCHANGED_DAYS_MESSAGE })
  @Max(365, { message: UNCHANGED_DAYS_MESSAGE })
  unchanged_days?: number;
}
