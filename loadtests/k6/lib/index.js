// One import for k6 scripts: benchmark options, the setup() readiness probe and handleSummary.
export { SCENARIO, TREND_STATS, param, urlPath, baseUrl, benchOptions } from './options.js';
export { waitUntilReady } from './probe.js';
export { handleSummary, textSummary } from './summary.js';
