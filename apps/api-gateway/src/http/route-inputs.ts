import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';

/** The DTO classes a handler's whole body and whole query string are validated against, when it takes them. */
export interface RouteInputs {
  body?: Function;
  query?: Function;
}

// Nest's ValidationPipe validates no other parameter types: there is no DTO behind them.
const NOT_DTOS = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

/**
 * Reads a handler's `@Body()` and `@Query()` parameters: Nest records them on the controller class under the
 * handler's name (keyed `${paramtype}:${index}`), TypeScript records the parameters' types on the method.
 * Parameters naming one key (`@Query('key')`) are not DTOs and are left out.
 */
export function routeInputs(controller: Function, prototype: object, method: string): RouteInputs {
  const args: Record<string, { index: number; data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {};
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', prototype, method) ?? [];
  const dtoOf = (paramtype: RouteParamtypes): Function | undefined => {
    const whole = Object.entries(args).find(([key, arg]) => key === `${paramtype}:${arg.index}` && arg.data === undefined);
    const type = whole && types[whole[1].index];
    return typeof type === 'function' && !NOT_DTOS.has(type) ? type : undefined;
  };
  return { body: dtoOf(RouteParamtypes.BODY), query: dtoOf(RouteParamtypes.QUERY) };
}

/** Whether the handler reads its body, or its query string, at all (`@Body()`, whole or one field), DTO or not. */
export function readsInput(controller: Function, method: string, input: 'body' | 'query'): boolean {
  const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {};
  const paramtype = input === 'body' ? RouteParamtypes.BODY : RouteParamtypes.QUERY;
  return Object.keys(args).some((key) => key.startsWith(`${paramtype}:`));
}
