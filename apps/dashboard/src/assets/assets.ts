import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { FastifyInstance } from 'fastify';
import { CSP_REPORT_PATH } from '../http/security-headers';

const CLIENT_ENTRY = join(__dirname, '../../client/dashboard.ts');
const STYLESHEET = join(__dirname, 'dashboard.css');

/** The one first-party script: built on first request (esbuild, milliseconds), for the browsers the SDK targets. */
export async function bundleDashboardScript(): Promise<string> {
  const result = await build({ entryPoints: [CLIENT_ENTRY], bundle: true, minify: true, format: 'iife', target: 'es2017', write: false, legalComments: 'none' });
  return result.outputFiles[0].text;
}

let script: Promise<string> | undefined;

/**
 * /dashboard/assets: the stylesheet and the script, the only sources the policy allows (`'self'`), and the route
 * the browser reports violations to. Assets change with a release only; `no-cache` makes browsers revalidate.
 */
export function serveAssets(scope: FastifyInstance, server: { log: (message: string, fields: Record<string, unknown>) => void }): void {
  scope.get('/assets/dashboard.css', (_request, reply) => reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'no-cache').send(readFileSync(STYLESHEET)));
  scope.get('/assets/dashboard.js', async (_request, reply) => {
    script ??= bundleDashboardScript();
    return reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(await script);
  });
  // The violation reports (report-uri's application/csp-report, report-to's application/reports+json): logged,
  // never echoed; a report says which directive blocked what, which is how a page that broke the policy is found.
  scope.addContentTypeParser(['application/csp-report', 'application/reports+json'], { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body.toString()));
    } catch {
      done(null, undefined);
    }
  });
  scope.post(CSP_REPORT_PATH.slice('/dashboard'.length), (request, reply) => {
    for (const report of violations(request.body)) server.log('dashboard CSP violation', report);
    return reply.code(204).send();
  });
}

/** The violations of either report format, as directive and blocked URL only. */
function violations(body: unknown): Array<{ directive: unknown; blocked: unknown; page: unknown }> {
  const reports = Array.isArray(body) ? body.map((report) => report?.body) : [(body as { 'csp-report'?: Record<string, unknown> } | undefined)?.['csp-report']];
  return reports
    .filter((report): report is Record<string, unknown> => typeof report === 'object' && report !== null)
    .map((report) => ({
      directive: report.effectiveDirective ?? report['effective-directive'] ?? report['violated-directive'],
      blocked: report.blockedURL ?? report['blocked-uri'],
      page: report.documentURL ?? report['document-uri'],
    }));
}
