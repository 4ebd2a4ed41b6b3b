import { join } from 'node:path';
import type { JsonSchema } from '../json-schema';
import { buildAsyncApiDocument, INTEGRATION_TOPICS, type Topic } from './asyncapi-document';

const DOCS = join(__dirname, '../../../../../docs');
export const ASYNCAPI_FILE = join(DOCS, 'asyncapi.json');
export const EVENTS_FILE = join(DOCS, 'events.md');

// The hand-written prose of docs/events.md stays around this section; only what lies between is generated.
const BEGIN = '<!-- generated: events (npm run -s build:events-docs); do not edit by hand -->';
const END = '<!-- end generated: events -->';

/** docs/asyncapi.json as the catalogue and its schemas make it. */
export const asyncApiText = (): string => `${JSON.stringify(buildAsyncApiDocument('1.0.0'), null, 2)}\n`;

/** docs/events.md with its table of integration events made again from the catalogue, the prose around it kept. */
export function eventsDoc(current: string): string {
  const begin = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/events.md needs the lines ${BEGIN} and ${END} around its table of integration events`);
  return `${current.slice(0, begin + BEGIN.length)}\n\n${eventsTable(INTEGRATION_TOPICS)}\n${current.slice(end)}`;
}

export function eventsTable(topics: readonly Topic[]): string {
  const rows = topics.map(({ address, source, data, readers }) => `| \`${address}\` | ${source} | ${cell(dataOf(data))} | ${readers.join(', ') || 'nobody yet'} |`);
  return ['| topic | producer | data | read by (consumer groups) |', '|---|---|---|---|', ...rows, ''].join('\n');
}

/** A topic's `data`: what it says, then each field with what is worth knowing beyond its name. */
function dataOf(schema: JsonSchema): string {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const description = String(schema.description ?? '');
  if (!properties) return description;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields = Object.entries(properties).map(([name, field]) => {
    const nullable = Array.isArray(field.type) && field.type.includes('null');
    const notes = [required.has(name) ? '' : 'optional', shapeOf(field), nullable ? 'or null' : '', String(field.description ?? '').replace(/\.$/, '')].filter(Boolean);
    return `\`${name}\`${notes.length ? ` (${notes.join('; ')})` : ''}`;
  });
  return `${description} ${fields.join(', ')}`;
}

/** The values, keys or resource of a field; nothing for a plain string, number or boolean. */
function shapeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => `\`${String(value)}\``).join(', ');
  if (typeof schema.$ref === 'string') return `the ${schema.$ref.split('/').pop()} resource`;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map((alternative) => (alternative.type === 'null' ? 'null' : shapeOf(alternative))).join(' or ');
  if (schema.properties) return `{${Object.keys(schema.properties).join(', ')}}`;
  if (schema.additionalProperties) return 'name → value';
  const items = schema.items as JsonSchema | undefined;
  if (items?.properties) return `[{${Object.keys(items.properties).join(', ')}}]`;
  return '';
}

/** Markdown table cells end at a pipe. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');
