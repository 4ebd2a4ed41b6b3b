import type { PageSightings } from '@pss/contracts';
import type { DomainEvent } from '@pss/kernel';
import type { ReportFact } from '../report/report-fold';

/**
 * Reports keeps the integration events it reads as its own history, so a report can be computed as of any
 * instant and a past period computed again gives the same data. Facts about a store go to its stream, policies
 * (which may be organization-wide) to the organization's; SDK activity, far more frequent, is counted by hour.
 */
export type ReportFactEvent = DomainEvent<'ReportFactRecorded', { fact: ReportFact }>;

export type SdkWindowEvent = DomainEvent<
  'SdkWindowCounted',
  { storeId: string; orgId: string; firstEventAt: string; lastEventAt: string; batches: number; observations: number; sessions: number } & {
    /** Batches by page path (absent from windows counted before it was added). */
    pages?: PageSightings[];
    /** Distinct client addresses of the window's page views (absent from windows counted before issue 29). */
    clients?: number;
  }
>;

export const storeFactsStream = (storeId: string): string => `reportfacts-${storeId}`;
export const orgFactsStream = (orgId: string): string => `reportorgfacts-${orgId}`;
export const sdkWindowsStream = (storeId: string): string => `reportsdk-${storeId}`;
/**
 * One SDK window's count, written once (expected: no stream) under its fact's id: a fact delivered again finds it
 * written, and the windows of two gateway replicas, which overlap in time, are two facts and both count.
 */
export const sdkWindowStream = (storeId: string, factId: string): string => `${sdkWindowsStream(storeId)}-${factId}`;
