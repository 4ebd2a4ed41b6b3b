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

  /** Readiness: read models have caught up with the event store and background work runs. */
  @Get('ready')
  @Public()
  ready() {
    if (!this.platform.ready) throw new HttpException({ status: 'starting' }, HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'ready' };
  }
}
