import type { ValidateFunction } from 'ajv';
import { componentValidator } from './component-validator';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: unknown;
  text: string;
}

type MediaTypes = Record<string, { schema?: unknown }>;
type Operation = { responses: Record<string, { content?: MediaTypes }> };
type PathItem = Record<string, unknown> & { servers?: { url: string }[] };
interface OpenApiDocument {
  servers: { url: string }[];
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

// Written by the HTTP server before any route is chosen (libs/host http-errors.ts), or for a method a path does
// not serve: no operation declares them, every one is still an error body.
const BEFORE_ANY_ROUTE = new Set([405, 408, 414, 431]);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/**
 * Checks an HTTP answer against the OpenAPI document the service serves: the operation the request went to
 * declares its status, and its body matches the schema declared for that status and media type. Requests
 * outside the documented prefixes (health, metrics, file links) are not checked.
 */
export class ContractCheck {
  private readonly routes: { pattern: RegExp; params: number; item: PathItem; template: string }[];
  private readonly validators = new Map<unknown, ValidateFunction>();
  private readonly compile: (schema: unknown) => ValidateFunction;
  private readonly error: ValidateFunction;

  constructor(private readonly document: OpenApiDocument) {
    const validator = componentValidator(document.components.schemas);
    this.compile = validator.compile;
    this.error = validator.component('Error');
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => {
        const full = `${(item.servers ?? document.servers)[0].url.replace(/\/$/, '')}${template}`;
        const source = full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
        return { pattern: new RegExp(`^${source}$`), params: (template.match(/\{/g) ?? []).length, item, template: full };
      })
      .sort((a, b) => a.params - b.params);
  }

  /** What is wrong with the answer, or undefined when it is what the document says. */
  problem(method: string, url: string, answer: Answer): string | undefined {
    const path = decodedPath(url);
    const documented = this.document.servers.map(({ url: server }) => server).concat('/sdk/v1').some((prefix) => path.startsWith(prefix));
    if (!documented) return undefined;
    const route = this.routes.find(({ pattern }) => pattern.test(path));
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const operation = route && METHODS.includes(verb) ? (route.item[verb] as Operation | undefined) : undefined;
    const where = `${method} ${route?.template ?? path} answered ${answer.status}`;
    if (!operation) {
      // An unknown path or method: 404 or 405 with an error body is what any client should expect.
      if (answer.status !== 404 && !BEFORE_ANY_ROUTE.has(answer.status)) return `${where}: no operation is documented there`;
      return this.errorBody(where, answer);
    }
    const declared = operation.responses[String(answer.status)];
    if (!declared) return BEFORE_ANY_ROUTE.has(answer.status) ? this.errorBody(where, answer) : `${where}, a status the document does not declare`;
    if (method.toLowerCase() === 'head' || answer.text === '') return declared.content && answer.status !== 302 && answer.status !== 304 ? `${where} with no body` : undefined;
    if (!declared.content) return `${where} with a body where the document declares none`;
    const type = String(answer.headers['content-type'] ?? '').split(';')[0].trim();
    const media = declared.content[type];
    if (!media) return `${where} with ${type}, not one of ${Object.keys(declared.content).join(', ')}`;
    if (type !== 'application/json') return undefined;
    return this.matches(where, media.schema, answer.body);
  }

  private errorBody(where: string, answer: Answer): string | undefined {
    if (answer.text === '' || !String(answer.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
    return this.error(answer.body) ? undefined : `${where} with an error body not shaped as Error: ${JSON.stringify(this.error.errors)}`;
  }

  private matches(where: string, schema: unknown, body: unknown): string | undefined {
    let validate = this.validators.get(schema);
    if (!validate) this.validators.set(schema, (validate = this.compile(schema)));
    if (validate(body)) return undefined;
    const shown = JSON.stringify(body);
    return `${where} with a body the document does not describe: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${shown.length > 600 ? `${shown.slice(0, 600)}…` : shown}`;
  }
}

/** The path of a URL, percent-decoded where that is valid (the server refuses the rest before any route). */
function decodedPath(url: string): string {
  const path = url.split('?')[0];
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
