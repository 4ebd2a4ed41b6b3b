import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { PRINCIPAL, type AuthenticatedRequest, type Principal } from './principal';

export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>()[PRINCIPAL];
  if (!principal) throw new Error('CurrentPrincipal used on a public route');
  return principal;
});
