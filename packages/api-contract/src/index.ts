export * from './ids';
export * from './auth';
export * from './errors';
export * from './runtime';
export * from './staff';
export * from './route-table';
export * from './page-meta';
export * from './site-pages';
