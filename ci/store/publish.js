// The history store's writer, under the name the bench verb imports: see store.js for the layout and policy.
export { publish, compact, DEFAULT_POLICY } from './store.js';
