export const ADAPTERS = Symbol('Adapters');
export const PLATFORM_OPTIONS = Symbol('PlatformOptions');

export interface PlatformOptions {
  /** Publishers and scheduled jobs run; false for a CLI that boots the service's code for one call. */
  background: boolean;
}
