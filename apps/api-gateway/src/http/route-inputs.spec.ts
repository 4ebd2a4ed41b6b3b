import 'reflect-metadata';
import { Body, Controller, Param, Post, Query } from '@nestjs/common';
import { IsString } from 'class-validator';
import { readsInput, routeInputs } from './route-inputs';

class CreateThing {
  @IsString() name: string;
}

class ListThings {
  @IsString() cursor: string;
}

@Controller('things')
class ThingsController {
  @Post(':id')
  create(@Param('id') _id: string, @Query() _query: ListThings, @Body() _body: CreateThing) {}

  @Post('named')
  named(@Query('key') _key: string, @Body('name') _name: CreateThing) {}

  @Post('untyped')
  untyped(@Body() _body: Record<string, unknown>) {}

  @Post('bodyless')
  bodyless(@Param('id') _id: string, @Query() _query: ListThings) {}

  @Post('bare')
  bare(@Param('id') _id: string) {}
}

describe('routeInputs', () => {
  const inputsOf = (method: string) => routeInputs(ThingsController, ThingsController.prototype, method);

  it('finds the DTOs of the whole body and the whole query string', () => {
    expect(inputsOf('create')).toEqual({ body: CreateThing, query: ListThings });
  });

  it('leaves out parameters naming one key, and bodies without a DTO class', () => {
    expect(inputsOf('named')).toEqual({ body: undefined, query: undefined });
    expect(inputsOf('untyped')).toEqual({ body: undefined, query: undefined });
  });

  it('tells a handler that reads its body or query string, in any form, from one that reads none', () => {
    const methods = ['create', 'named', 'untyped', 'bodyless', 'bare'];
    expect(methods.map((method) => readsInput(ThingsController, method, 'body'))).toEqual([true, true, true, false, false]);
    expect(methods.map((method) => readsInput(ThingsController, method, 'query'))).toEqual([true, true, false, true, false]);
  });
});
