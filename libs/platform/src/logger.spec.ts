import { Logger } from '@nestjs/common';
import { JsonLogger } from './logger';

describe('JsonLogger', () => {
  const capture = (level: 'debug' | 'info' | 'warn' | 'error' = 'info') => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = new JsonLogger('inventory', level, (line) => lines.push(JSON.parse(line)));
    return { logger, lines };
  };

  it('writes standard level names, never Nest\'s "log" or "verbose"', () => {
    const { logger, lines } = capture('debug');
    logger.log('a', 'Ctx');
    logger.verbose('b', 'Ctx');
    logger.debug('c', 'Ctx');
    logger.warn('d', 'Ctx');
    logger.error('e', undefined, 'Ctx');
    logger.fatal('f', 'Ctx');
    expect(lines.map((line) => line.level)).toEqual(['info', 'debug', 'debug', 'warn', 'error', 'fatal']);
    expect(lines.every((line) => line.context === 'Ctx' && line.service === 'inventory')).toBe(true);
  });

  it('keeps the message a string and puts an object\'s other fields beside it', () => {
    const { logger, lines } = capture();
    logger.log({ message: 'ops socket listening', path: '/data/ops.sock' }, 'Ops');
    logger.log({ projections: 12 }, 'Platform');
    logger.error(new Error('boom'), 'Http');
    expect(lines[0]).toMatchObject({ message: 'ops socket listening', path: '/data/ops.sock' });
    expect(lines[1]).toMatchObject({ message: '', projections: 12 });
    expect(lines[2]).toMatchObject({ level: 'error', message: 'boom' });
    expect(lines.every((line) => typeof line.message === 'string' && typeof line.time === 'string')).toBe(true);
  });

  it('keeps the stack Nest passes with an error', () => {
    const { logger, lines } = capture();
    logger.error('subscription dropped', 'Error: x\n    at y', 'Projections');
    expect(lines[0]).toMatchObject({ message: 'subscription dropped', stack: 'Error: x\n    at y', context: 'Projections' });
  });

  it('drops what is below the configured level, and Nest\'s start-up chatter unless debugging', () => {
    const { logger, lines } = capture('info');
    logger.debug('hidden', 'Ctx');
    logger.log('Mapped {/api/v1/stores, GET} route', 'RouterExplorer');
    logger.log('InventoryModule dependencies initialized', 'InstanceLoader');
    logger.log('shown', 'Ctx');
    expect(lines.map((line) => line.message)).toEqual(['shown']);
    const debugging = capture('debug');
    debugging.logger.log('Mapped {/api/v1/stores, GET} route', 'RouterExplorer');
    expect(debugging.lines[0]).toMatchObject({ level: 'debug', context: 'RouterExplorer' });
  });

  it('serves Nest\'s Logger once it is the application logger', () => {
    const { logger, lines } = capture('warn');
    Logger.overrideLogger(logger);
    try {
      new Logger('Deliveries').warn({ message: 'delivery attempt failed', delivery_id: 'd-1' });
      new Logger('Deliveries').log('not at warn');
    } finally {
      Logger.overrideLogger(false);
    }
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', context: 'Deliveries', message: 'delivery attempt failed', delivery_id: 'd-1' })]);
  });
});
