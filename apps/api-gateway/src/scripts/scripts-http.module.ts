import { Module } from '@nestjs/common';
import { ScriptsController } from './scripts.controller';

@Module({ controllers: [ScriptsController] })
export class ScriptsHttpModule {}
