// The analytics job's use case: roll up finished days' sales and the changed courses' snapshots (analytics/rollup.ts).
export { type RollupRun, runAnalyticsRollup } from '../analytics/rollup.ts'
