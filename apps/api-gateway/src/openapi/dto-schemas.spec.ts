import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidateIf,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { IsTimeZone, Nullable, Omittable } from '../http/field-validators';
import { DtoSchemas, UNMAPPED_VALIDATORS } from './dto-schemas';
import { componentValidator } from './testing/component-validator';

class Leaf {
  @Length(2, 5)
  code: string;
}

class EveryValidator {
  @IsString() @IsNotEmpty() @MinLength(2) @MaxLength(10) text: string;
  @Matches(/^[a-z]+$/i) letters: string;
  @IsInt() @Min(1) @Max(9) count: number;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1) ratio: number;
  @IsIn(['a', 'b']) choice: string;
  @IsBoolean() flag: boolean;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) @MaxLength(4, { each: true }) tags: string[];
  @IsUUID('all') id: string;
  @IsISO8601({ strict: true }) at: string;
  @IsEmail() email: string;
  @IsObject() @ValidateNested() @Type(() => Leaf) leaf: Leaf;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Leaf) leaves: Leaf[];
  @IsTimeZone() zone: string;
}

class Base {
  @Omittable() @IsString() inherited?: string;
  @IsString() redefined: string;
}

class Presence extends Base {
  @IsString() required: string;
  @Omittable() @IsString() omittable?: string;
  @Nullable() @IsString() nullable?: string | null;
  @IsOptional() @IsIn(['x']) optional?: string | null;
  @Omittable() @IsArray() pages?: string[];
  // AddPagesBody's form: this field or `pages`.
  @ValidateIf((body: Presence) => body.pages === undefined) @IsString() conditional?: string;
  @Omittable() @IsInt() override redefined: string;
}

function IsPalindrome(): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'isPalindrome',
      target: target.constructor,
      propertyName: property as string,
      validator: { validate: (value: unknown) => typeof value === 'string' && [...value].reverse().join('') === value },
    });
}

class Undescribable {
  @IsPalindrome() word: string;
  @Matches(/^a$/m) multiline: string;
  @ValidateNested() untyped: object;
}

class Tree {
  @IsString() name: string;
  @Omittable() @IsArray() @ValidateNested({ each: true }) @Type(() => Tree) children?: Tree[];
}

class Loose {
  @IsString({ each: true }) @MaxLength(3, { each: true }) one_or_many: string | string[];
}

const schemasOf = (dto: Function) => {
  const schemas = new DtoSchemas(new Set());
  const ref = schemas.refTo(dto);
  return { ref, components: schemas.components };
};

describe('DtoSchemas', () => {
  it('describes each validator the DTOs use', () => {
    const { ref, components } = schemasOf(EveryValidator);
    expect(ref).toEqual({ $ref: '#/components/schemas/EveryValidator' });
    expect(components.EveryValidator.properties).toEqual({
      text: { type: 'string', minLength: 2, maxLength: 10 },
      letters: { type: 'string', pattern: '^[a-zA-Z]+$' },
      count: { type: 'integer', minimum: 1, maximum: 9 },
      ratio: { type: 'number', minimum: 0, maximum: 1 },
      choice: { enum: ['a', 'b'] },
      flag: { type: 'boolean' },
      tags: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', maxLength: 4 } },
      id: { type: 'string', format: 'uuid' },
      at: { type: 'string', format: 'date-time' },
      email: { type: 'string', format: 'email' },
      leaf: { type: 'object', $ref: '#/components/schemas/Leaf' },
      leaves: { type: 'array', items: { $ref: '#/components/schemas/Leaf' } },
      zone: { type: 'string', description: expect.stringContaining('IANA time zone') },
    });
    expect(components.Leaf).toEqual({
      type: 'object',
      properties: { code: { type: 'string', minLength: 2, maxLength: 5 } },
      required: ['code'],
      additionalProperties: false,
    });
  });

  it('requires a field without conditions, and follows Omittable, Nullable, IsOptional and other conditions', () => {
    const { components } = schemasOf(Presence);
    const { properties, required } = components.Presence as { properties: Record<string, unknown>; required: string[] };
    expect(required).toEqual(['required']);
    expect(properties.omittable).toEqual({ type: 'string' });
    expect(properties.nullable).toEqual({ type: ['string', 'null'] });
    expect(properties.optional).toEqual({ anyOf: [{ enum: ['x'] }, { type: 'null' }] });
    expect(properties.conditional).toEqual({ type: 'string', description: 'Whether this field is required and checked depends on pages.' });
  });

  it('includes inherited fields, base class first, and lets a subclass redefine one as class-validator does', () => {
    const { components } = schemasOf(Presence);
    expect(Object.keys(components.Presence.properties as object)).toEqual([
      'inherited',
      'required',
      'omittable',
      'nullable',
      'optional',
      'pages',
      'conditional',
      'redefined',
    ]);
    expect((components.Presence.properties as Record<string, unknown>).redefined).toEqual({ type: 'integer' });
    expect(components.Presence.additionalProperties).toBe(false);
  });

  it('refers a DTO nesting itself to its own component', () => {
    const { components } = schemasOf(Tree);
    expect(Object.keys(components)).toEqual(['Tree']);
    expect((components.Tree.properties as Record<string, unknown>).children).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Tree' },
    });
  });

  it('applies `each` validators to the items of an array, or else to the value itself', () => {
    const { components } = schemasOf(Loose);
    const item = { type: 'string', maxLength: 3 };
    expect((components.Loose.properties as Record<string, unknown>).one_or_many).toEqual({
      if: { type: 'array' },
      then: { type: 'array', items: item },
      else: item,
    });
  });

  it('flags the validators it cannot describe instead of guessing', () => {
    const { components } = schemasOf(Undescribable);
    expect(components.Undescribable.properties).toEqual({
      word: { [UNMAPPED_VALIDATORS]: ['isPalindrome'] },
      multiline: { [UNMAPPED_VALIDATORS]: ['matches'] },
      untyped: { [UNMAPPED_VALIDATORS]: ['nestedValidation'] },
    });
  });

  it('gives two DTOs of one name two components, and leaves reserved names alone', () => {
    // Each in its own scope, where the compiler leaves its name alone.
    const inner = (() => {
      class Body {
        @IsString() a: string;
      }
      return Body;
    })();
    const outer = (() => {
      class Body {
        @IsObject() @ValidateNested() @Type(() => inner) inner: object;
      }
      return Body;
    })();
    const schemas = new DtoSchemas(new Set(['Body']));
    expect([schemas.refTo(outer), schemas.refTo(inner), schemas.refTo(outer)]).toEqual([
      { $ref: '#/components/schemas/Body2' },
      { $ref: '#/components/schemas/Body3' },
      { $ref: '#/components/schemas/Body2' },
    ]);
    expect((schemas.components.Body2.properties as Record<string, unknown>).inner).toEqual({ type: 'object', $ref: '#/components/schemas/Body3' });
  });

  it('lists the fields of a query DTO with their presence', () => {
    const fields = new DtoSchemas(new Set()).fieldsOf(Presence);
    expect(fields.find((field) => field.name === 'nullable')).toEqual({ name: 'nullable', required: false, nullable: true, schema: { type: 'string' } });
    expect(fields.find((field) => field.name === 'required')).toMatchObject({ required: true, nullable: false });
  });

  describe('agrees with class-validator', () => {
    const leaf = { code: 'abc' };
    const valid = {
      text: 'hello',
      letters: 'AbC',
      count: 3,
      ratio: 0.5,
      choice: 'a',
      flag: false,
      tags: ['x', 'yz'],
      id: '6f1c2a52-3a64-4d8e-9b0e-52c6a9e1f0d4',
      at: '2025-01-31T10:00:00Z',
      email: 'someone@example.com',
      leaf,
      leaves: [leaf],
      zone: 'America/Sao_Paulo',
    };
    const presence = { required: 'x', redefined: 1, conditional: 'y' };
    const cases: [string, Function, object][] = [
      ['a valid body', EveryValidator, valid],
      ['an unknown field', EveryValidator, { ...valid, extra: 1 }],
      ['a missing field', EveryValidator, { ...valid, text: undefined }],
      ['a string too long', EveryValidator, { ...valid, text: 'x'.repeat(11) }],
      ['an empty string', EveryValidator, { ...valid, text: '' }],
      ['a pattern mismatch', EveryValidator, { ...valid, letters: 'ab1' }],
      ['a fraction for an integer', EveryValidator, { ...valid, count: 1.5 }],
      ['a number out of range', EveryValidator, { ...valid, ratio: 2 }],
      ['a value not in the list', EveryValidator, { ...valid, choice: 'c' }],
      ['a string for a boolean', EveryValidator, { ...valid, flag: 'true' }],
      ['too many items', EveryValidator, { ...valid, tags: ['a', 'b', 'c', 'd'] }],
      ['no items', EveryValidator, { ...valid, tags: [] }],
      ['an item too long', EveryValidator, { ...valid, tags: ['abcde'] }],
      ['a bad UUID', EveryValidator, { ...valid, id: 'nope' }],
      ['a bad date-time', EveryValidator, { ...valid, at: 'yesterday' }],
      ['a bad e-mail', EveryValidator, { ...valid, email: 'nope' }],
      ['an array for an object', EveryValidator, { ...valid, leaf: [leaf] }],
      ['a bad nested field', EveryValidator, { ...valid, leaf: { code: 'a' } }],
      ['an unknown nested field', EveryValidator, { ...valid, leaves: [{ ...leaf, extra: 1 }] }],
      ['the fewest fields', Presence, presence],
      ['null where Nullable', Presence, { ...presence, nullable: null }],
      ['null where Omittable', Presence, { ...presence, omittable: null }],
      ['null where IsOptional', Presence, { ...presence, optional: null }],
      ['a missing required field', Presence, { redefined: 1 }],
      ['null for a required field', Presence, { ...presence, required: null }],
      ['a redefined field of the base type', Presence, { ...presence, redefined: 'x' }],
      ['a conditional field checked', Presence, { ...presence, conditional: 1 }],
      ['a nested tree', Tree, { name: 'a', children: [{ name: 'b', children: [] }] }],
      ['a bad nested tree', Tree, { name: 'a', children: [{ name: 2 }] }],
      ['one value for `each`', Loose, { one_or_many: 'abc' }],
      ['many values for `each`', Loose, { one_or_many: ['abc', 'd'] }],
      ['a bad value for `each`', Loose, { one_or_many: ['abcd'] }],
    ];
    const schemas = new DtoSchemas(new Set());
    for (const [, dto] of cases) schemas.refTo(dto);
    const validator = componentValidator(schemas.components);

    const classValidatorAccepts = (dto: Function, body: object) =>
      validateSync(plainToInstance(dto as new () => object, body), { whitelist: true, forbidNonWhitelisted: true }).length === 0;

    it.each(cases)('on %s', (_case, dto, body) => {
      const plain = JSON.parse(JSON.stringify(body));
      expect(validator.component(dto.name)(plain)).toBe(classValidatorAccepts(dto, plain));
    });

    it('except where a condition reads other fields, which the schema only describes in words', () => {
      // Required while `pages` is absent, unchecked once it is there: the schema does neither.
      const missing = { required: 'x', redefined: 1 };
      expect([classValidatorAccepts(Presence, missing), validator.component('Presence')(missing)]).toEqual([false, true]);
      const unchecked = { ...missing, pages: [], conditional: 1 };
      expect([classValidatorAccepts(Presence, unchecked), validator.component('Presence')(unchecked)]).toEqual([true, false]);
    });
  });
});
