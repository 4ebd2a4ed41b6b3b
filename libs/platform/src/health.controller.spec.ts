import { HttpException } from '@nestjs/common';
import { HealthController } from './health.controller';
import type { PlatformLifecycle } from './platform.lifecycle';

/** What the orchestrator sees of the lifecycle's state: a stalled publisher takes the replica out (review D1). */
describe('GET /ready', () => {
  const answer = (platform: Pick<PlatformLifecycle, 'ready' | 'stalledPublishers'>) => {
    try {
      return { status: 200, body: new HealthController(platform as PlatformLifecycle).ready() };
    } catch (failure) {
      const refused = failure as HttpException;
      return { status: refused.getStatus(), body: refused.getResponse() };
    }
  };

  it('is ready once started with every publisher subscribed', () => {
    expect(answer({ ready: true, stalledPublishers: () => [] })).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('answers 503 starting before that', () => {
    expect(answer({ ready: false, stalledPublishers: () => [] })).toEqual({ status: 503, body: { status: 'starting' } });
  });

  it('answers 503 stalled, naming them, while publishers cannot subscribe', () => {
    expect(answer({ ready: false, stalledPublishers: () => ['inventory'] })).toEqual({ status: 503, body: { status: 'stalled', publishers: ['inventory'] } });
  });
});
