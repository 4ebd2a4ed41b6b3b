// The reads behind the dashboard's pages (tokens, e-mail channels, deliveries, the audit log): queries over read
// models their owning services declare in the contracts, each scoped to the acting organization.
export * from './tokens';
export * from './channels';
export * from './audit-log';
export * from './alerts';
export * from './reports';
export * from './scripts';
export * from './policies';
