import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';

/** One route a Nest handler serves: its method and the URL template Fastify routes it under. */
export interface HandlerRoute {
  method: string;
  url: string;
}

/** Every route a handler serves (one per path it declares), none for a method that is not a route. */
export function handlerRoutes(controller: Function, handler: Function): HandlerRoute[] {
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  if (method === undefined) return [];
  const controllerPath = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
  const paths = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined].flat();
  return paths.map((path) => ({ method: RequestMethod[method], url: routeUrl(controllerPath, path) }));
}

/** `GET /api/v1/stores/:id`: how route-gates.ts names a route. */
export const routeName = ({ method, url }: HandlerRoute): string => `${method} ${url}`;

/** The URL Fastify routes a Nest handler under: `/` + the controller's path + the method's, without empty parts. */
function routeUrl(controllerPath = '', methodPath = ''): string {
  const parts = [controllerPath, methodPath].flatMap((path) => path.split('/')).filter(Boolean);
  return `/${parts.join('/')}`;
}
