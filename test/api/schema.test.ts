// The printed schema: schema/schema.graphql must match printSchema(schema) (regenerate with
// `UPDATE_SCHEMA=1 npx jest test/api/schema.test.ts --selectProjects integration`), and berth's
// schema must contain the client contract (graphql-js findBreakingChanges reports nothing).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  findBreakingChanges,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  printSchema,
} from 'graphql';
import { schema } from '../../schema/index';

const SDL_FILE = path.resolve(__dirname, '../../schema/schema.graphql');
const CONTRACT_FILE = path.resolve(__dirname, '../support/contract.graphql');

const breakingChanges = () =>
  findBreakingChanges(buildSchema(readFileSync(CONTRACT_FILE, 'utf8')), schema);

describe('schema', () => {
  it('matches the committed schema/schema.graphql', () => {
    const printed = `${printSchema(schema)}\n`;
    if (process.env.UPDATE_SCHEMA === '1') {
      writeFileSync(SDL_FILE, printed);
    }
    expect(readFileSync(SDL_FILE, 'utf8')).toBe(printed);
  });

  it('contains the whole client contract (findBreakingChanges reports nothing)', () => {
    expect(breakingChanges().map((c) => `${c.type}: ${c.description}`)).toEqual([]);
  });

  it('describes every type, field, argument and enum value (a UI developer works from the docs)', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        type.name.startsWith('__') ||
        ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)
      ) {
        continue;
      }
      if (!type.description) {
        missing.push(type.name);
      }
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) {
            missing.push(`${type.name}.${field.name}`);
          }
          for (const arg of 'args' in field ? field.args : []) {
            if (!arg.description) {
              missing.push(`${type.name}.${field.name}(${arg.name})`);
            }
          }
        }
      }
      if (isEnumType(type)) {
        for (const value of type.getValues()) {
          if (!value.description) {
            missing.push(`${type.name}.${value.name}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
