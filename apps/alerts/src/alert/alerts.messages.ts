import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { COMMANDS, type UpdateAlertRequest } from '@pss/contracts';
import { UpdateAlert } from './update-alert';

/** Alert commands arriving over the bus from the gateway. */
@Controller()
export class AlertsMessages {
  constructor(private readonly commands: CommandBus) {}

  @MessagePattern(COMMANDS.alertUpdate)
  update(@Payload() request: UpdateAlertRequest) {
    return this.commands.execute(new UpdateAlert(request));
  }
}
