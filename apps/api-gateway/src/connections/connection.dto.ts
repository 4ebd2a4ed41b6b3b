import { IsIn, Matches, MaxLength } from 'class-validator';
import { CONNECTION_VIAS, MAX_ORIGIN_LENGTH } from '@pss/contracts';
import { Omittable, OmittableUuid } from '../http/field-validators';
import { ListQuery } from '../pagination/list-query.dto';

const ORIGIN_MESSAGE = `origin must be an http(s) or ws(s) origin as browsers write it (scheme://host[:port], lower case, no path), of at most ${MAX_ORIGIN_LENGTH} characters`;

export class ListConnectionsQuery extends ListQuery {
  @OmittableUuid()
  store_id?: string;

  /** Matched exactly against what is kept, so only its shape is checked here (punycode, no default port is the SDK's). */
  @Omittable()
  @MaxLength(MAX_ORIGIN_LENGTH, { message: ORIGIN_MESSAGE })
  @Matches(/^(https?|wss?):\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/, { message: ORIGIN_MESSAGE })
  origin?: string;

  @Omittable()
  @IsIn(CONNECTION_VIAS, { message: `via must be one of ${CONNECTION_VIAS.join(', ')}` })
  via?: string;

  /** The connections a script initiated: its id in the inventory. */
  @OmittableUuid()
  script_id?: string;
}
