// Adds up vitest's and Playwright's JSON reports into one closing line CI can read.
import { readFileSync } from 'node:fs';

const read = (file) => JSON.parse(readFileSync(new URL(`../test-results/${file}`, import.meta.url), 'utf8'));
const unit = read('vitest.json');
const browser = read('playwright.json');

const passed = unit.numPassedTests + (browser.stats.expected ?? 0);
const failed = unit.numFailedTests + (browser.stats.unexpected ?? 0) + (browser.stats.flaky ?? 0);
const skipped = unit.numPendingTests + unit.numTodoTests + (browser.stats.skipped ?? 0);
console.log(`unit: ${unit.numPassedTests} passed, browser: ${browser.stats.expected} passed`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exit(1);
