/** Most bytes the inline script may weigh on every page (the benchmark and a unit test hold it to this). */
export const INLINE_SCRIPT_BUDGET_BYTES = 3 * 1024;
