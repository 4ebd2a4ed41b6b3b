import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readsInput } from '../http/route-inputs';
import type { AuthenticatedRequest } from './principal';
import { gateOfHandler, RequestAdmission, type RouteInputsRead } from './request-admission';
import type { Gate } from './route-gates';

/**
 * Nest's gate on every route: the route's gate from route-gates.ts, run by `RequestAdmission`. A route the table
 * does not list fails loudly instead of being open.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(private readonly admission: RequestAdmission) {}

  /** What each route declares, read once per handler: the table and the metadata never change after start. */
  private readonly declarations = new WeakMap<Function, WeakMap<Function, RouteDeclaration>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.declarationOf(context.getClass(), context.getHandler());
    // Public routes need nothing; SDK-key routes were admitted at onRequest, before their body (SdkAdmission).
    if (route.gate.kind !== 'bearer') return true;
    const http = context.switchToHttp();
    await this.admission.admit(http.getRequest<FastifyRequest & AuthenticatedRequest>(), http.getResponse<FastifyReply>(), route.gate, route);
    return true;
  }

  private declarationOf(controller: Function, handler: Function): RouteDeclaration {
    let byHandler = this.declarations.get(controller);
    if (!byHandler) this.declarations.set(controller, (byHandler = new WeakMap()));
    let declaration = byHandler.get(handler);
    if (!declaration) {
      declaration = {
        gate: gateOfHandler(controller, handler),
        readsBody: readsInput(controller, handler.name, 'body'),
        readsQuery: readsInput(controller, handler.name, 'query'),
      };
      byHandler.set(handler, declaration);
    }
    return declaration;
  }
}

interface RouteDeclaration extends RouteInputsRead {
  gate: Gate;
}
