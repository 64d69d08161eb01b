// The span read model's reader, shared by the query service (every read of spans and traces) and
// the command service (the stored trace behind PATCH/DELETE /simple/traces): the read-model handle
// with its retention bound and time limit, reads by id sized against QUERY_MAX_RESULT_BYTES, the
// span and simple-trace views, and the read-model query timings.
export * from './read-model.ts';
export * from './read-timing.ts';
export * from './span-reader.ts';
export * from './span-view.ts';
export * from './simple-trace-view.ts';
export * from './simple-trace-lookup.ts';
export * from './trace-metrics.ts';
export * from './search/span-search.ts';
export * from './search/filter-search.ts';
export * from './search/trace-id-shortcut.ts';
