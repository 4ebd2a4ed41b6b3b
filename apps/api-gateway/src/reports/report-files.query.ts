import { IsString, Matches, MaxLength } from 'class-validator';
import { FILE_KEY_PATTERN, MAX_FILE_KEY_LENGTH } from '@pss/files';

/** The query string of a signed report file link (libs/report-files/src/signed-url.ts makes it). */
export class ReportFileQuery {
  @IsString({ message: 'key must be a report file key' })
  @MaxLength(MAX_FILE_KEY_LENGTH, { message: 'key must be a report file key' })
  @Matches(FILE_KEY_PATTERN, { message: 'key must be a report file key' })
  key: string;

  @Matches(/^\d{1,12}$/, { message: 'expires must be a Unix time in seconds' })
  expires: string;

  @Matches(/^[0-9a-f]{64}$/, { message: 'sha256 must be 64 lowercase hexadecimal characters' })
  sha256: string;

  @IsString({ message: 'name must be a file name' })
  @Matches(/^[A-Za-z0-9._-]{1,200}$/, { message: 'name must be a file name' })
  name: string;

  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'signature must be a base64url HMAC-SHA256' })
  signature: string;
}
