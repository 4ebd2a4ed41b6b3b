// What the reports service and the gateway both need of a report's data: its shape, its canonical JSON, the CSV
// tables and file names, signed file links and the plan rule. No Nest here: the PDF thread loads this index.
// The links' Nest provider is `@pss/report-files/report-file-links`; the test data `@pss/report-files/testing/…`.
export * from './canonical-json';
export * from './file-names';
export * from './labels';
export * from './report-csv';
export * from './report-data';
export * from './reports-plan';
export * from './signed-url';
export * from './snapshot-data';
