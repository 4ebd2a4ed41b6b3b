import { Controller, Get, HttpException, HttpStatus } from '@nestjs/common';
import { PlatformLifecycle } from './platform.lifecycle';
import { Public } from './public.decorator';

/** Served by every service: orchestrators probe these. */
@Controller()
export class HealthController {
  constructor(private readonly platform: PlatformLifecycle) {}

  /** Liveness: the process answers. */
  @Get('health')
  @Public()
  health() {
    return { status: 'ok' };
  }

  /** Readiness: read models have caught up with the event store and background work runs (no publisher stalled). */
  @Get('ready')
  @Public()
  ready() {
    const stalled = this.platform.stalledPublishers();
    if (stalled.length) throw new HttpException({ status: 'stalled', publishers: stalled }, HttpStatus.SERVICE_UNAVAILABLE);
    if (!this.platform.ready) throw new HttpException({ status: 'starting' }, HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'ready' };
  }
}
