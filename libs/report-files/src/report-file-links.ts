import { Inject, Injectable, Module } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CLOCK, type Clock } from '@pss/kernel';
import { loadSecretKey } from '@pss/secrets';
import { fileSigningKey, signedFileUrl, signFileUrl, verifyFileUrl, type FileUrlCheck, type FileUrlQuery, type SignedFile } from './signed-url';

/**
 * Signed links to report files with the service's configuration: its public URL, its clock and the key derived
 * from SECRET_KEY (or the data directory's key file), read on first use. The reports service makes the links
 * (`Location` of a PDF), the gateway checks them.
 */
@Injectable()
export class ReportFileLinks {
  private key?: Buffer;

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A link valid one hour from now, e.g. `https://pss.example/api/v1/reports/pci/files/<key>?expires=…`. */
  location(file: SignedFile): string {
    return reportFileLocation(this.config, this.signingKey(), file, this.clock);
  }

  verify(key: string, query: Partial<Record<keyof FileUrlQuery, unknown>>): FileUrlCheck {
    return verifyFileUrl(this.signingKey(), key, query, this.clock.now());
  }

  private signingKey(): Buffer {
    this.key ??= fileSigningKey(loadSecretKey(process.env, this.config.dataDir));
    return this.key;
  }
}

/** The Location of a signed file link under `config.publicUrl`, valid one hour from the clock's now. */
export function reportFileLocation(config: Pick<ServiceConfig, 'publicUrl'>, signingKey: Buffer, file: SignedFile, clock: Clock): string {
  return signedFileUrl(config.publicUrl, file.key, signFileUrl(signingKey, file, clock.now()));
}

/** ReportFileLinks for whichever module makes or checks links (reports, gateway); needs the platform's config and clock. */
@Module({ providers: [ReportFileLinks], exports: [ReportFileLinks] })
export class ReportFileLinksModule {}
