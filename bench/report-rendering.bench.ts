import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buffer } from 'node:stream/consumers';
import { reportCsv } from '@pss/report-files';
import { largeReportData } from '@pss/report-files/testing/report-data.fixture';
import { renderReportPdf, type ReportPdfSnapshot } from '@pss/reports/src/rendering/report-pdf';
import type { BenchRow } from './report';
import { collectGarbage, log, QUICK } from './support';

/**
 * Benchmark 6r (rendering alone): the renderers on the fixture's large report (every script with a
 * justification, authorization, expiry and three hashes; alerts with sources, resolutions and notes; a year of
 * weekly checks), without building it from facts: the PDF as the assessor gets it, and the largest CSV table.
 * Benchmark 6 measures the same PDF step on data built from a year of facts. Each figure is the best of two
 * runs; CPU time is what the work costs whatever the neighbours do; the event-loop figure is the longest stall.
 */
const SIZE = QUICK ? { scripts: 500, alerts: 1000 } : { scripts: 5000, alerts: 10_000 };

const SNAPSHOT: ReportPdfSnapshot = {
  id: '0193a5b0-7c1e-7d2a-9f00-5e1f2a3b4c5d',
  sha256: '3f1c9a7be2d4056c8a1e9f0b7d6c5a4e3f2b1a0c9d8e7f6a5b4c3d2e1f0a9b8c',
  kind: 'monthly',
  created_at: '2026-11-23T12:00:00.000Z',
  generated_by: 'scheduler:monthly',
  locale: 'pt-BR',
  timezone: 'America/Sao_Paulo',
};

interface Run {
  ms: number;
  cpuMs: number;
  stallMs: number;
  bytes: number;
}

async function measure(work: () => Promise<Buffer>): Promise<Run> {
  collectGarbage();
  const stalls = monitorEventLoopDelay({ resolution: 5 });
  stalls.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const bytes = (await work()).length;
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  stalls.disable();
  return { ms, cpuMs: (user + system) / 1000, stallMs: stalls.max / 1e6, bytes };
}

const bestOfTwo = async (work: () => Promise<Buffer>): Promise<Run> => {
  const [a, b] = [await measure(work), await measure(work)];
  return { ...(a.ms <= b.ms ? a : b), cpuMs: Math.min(a.cpuMs, b.cpuMs), stallMs: Math.min(a.stallMs, b.stallMs) };
};

export async function reportRenderingBench(): Promise<BenchRow[]> {
  const data = largeReportData(SIZE);
  log(`rendering: PDF of the fixture (${SIZE.scripts} scripts, ${SIZE.alerts} alerts), best of 2...`);
  const pdf = await bestOfTwo(() => renderReportPdf(data, SNAPSHOT));
  log(`rendering: PDF ${pdf.ms.toFixed(0)} ms (CPU ${pdf.cpuMs.toFixed(0)} ms), ${(pdf.bytes / 2 ** 20).toFixed(1)} MiB, longest stall ${pdf.stallMs.toFixed(1)} ms`);
  const csv = await bestOfTwo(() => buffer(reportCsv(data, 'alerts', 'pt-BR')));
  log(`rendering: CSV alerts ${csv.ms.toFixed(0)} ms, longest stall ${csv.stallMs.toFixed(1)} ms`);
  const row = (name: string, measured: number, aim: string): BenchRow => ({ id: '6r', name, unit: 'ms', measured, baseline: null, higherIsBetter: false, baselineLabel: `none: aim ${aim}` });
  return [
    row(`PDF of the fixture's large report alone (${SIZE.scripts} scripts, ${SIZE.alerts} alerts), ${(pdf.bytes / 2 ** 20).toFixed(1)} MiB`, pdf.ms, '≤ 5000 ms'),
    row('… CPU time of the process for it', pdf.cpuMs, '≤ 5000 ms'),
    row('… event loop held at most, while rendering it', pdf.stallMs, '≤ 100 ms'),
    row(`CSV of its ${SIZE.alerts} alerts, streamed`, csv.ms, 'none'),
    row('… event loop held at most, while streaming it', csv.stallMs, '≤ 100 ms'),
  ];
}
