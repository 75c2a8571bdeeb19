// The entry of the lazily loaded query-parameter formatting (lazy.ts): the value checks and the
// text forms of `{name:Type}` parameters, fetched by a split bundle on the first call with params.
export { formatQueryParam } from './params.js';
