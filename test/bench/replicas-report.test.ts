/**
 * The replicas section's sizes from the command line, its Markdown from a hand-made result, the
 * block's place in docs/benchmarks.md, and the conformance timer's reading of vitest's JUnit report.
 */
import { describe, expect, it } from 'vitest';
import { summarizeJunit } from '../../bench/lib/conformance-time.ts';
import type { LoadResult } from '../../bench/lib/load.ts';
import { FULL_SIZES, parseReplicasArgs, QUICK_SIZES, replicasSection, withReplicasSection, type ReplicasResult } from '../../bench/lib/replicas-report.ts';

const load = (requestsPerSecond: number, p99Ms: number, failed = 0): LoadResult => ({ requestsPerSecond, p50Ms: 1, p99Ms, errors: failed, non2xx: 0, requests: requestsPerSecond * 5 });
const figures = (p50Ms: number, p99Ms: number) => ({ writes: 400, p50Ms, p99Ms, maxMs: p99Ms * 2 });

const result: ReplicasResult = {
  at: '2026-11-28T12:10:00.000Z',
  machine: '2 cores, AMD EPYC, Node v24.21.0',
  generator: 'wrk 4 (1 thread)',
  sizes: FULL_SIZES,
  loadAverage: { start: 1.23, end: 2.5 },
  oneReplica: [load(100, 9), load(300, 30), load(200, 20)],
  threeReplicas: [load(150, 12), load(250, 25), load(50, 5, 2)],
  killed: { ...load(700, 40), requests: 4_200 },
  checksResume: { intervalSeconds: 10, killedReplica: 2, resumedBy: 0, dueAfterKillSeconds: 7.96, resumedAfterSeconds: 8.04, gapSeconds: 10.02 },
  fanOut: { subscribers: 10_000, mailed: 10_000, twice: 0, seconds: 85.44, limitSeconds: 300, sentPerProcess: [3_380, 3_360, 3_260] },
  conformance: [
    { dialect: 'sqlite', files: 8, tests: 71, wallSeconds: 10, testSeconds: 4 },
    { dialect: 'postgres', files: 8, tests: 71, wallSeconds: 25, testSeconds: 6 },
  ],
  writeLatency: { at: '', machine: '', write: '', sqlite: figures(8, 100), postgres: figures(28, 250) },
  durationSeconds: 301,
};

describe('parseReplicasArgs', () => {
  it('gives the issue\'s sizes by default and the small set with --quick, flags on top', () => {
    expect(parseReplicasArgs([])).toEqual(FULL_SIZES);
    expect(FULL_SIZES).toMatchObject({ subscribers: 10_000, conformanceFiles: 8 });
    expect(parseReplicasArgs(['--replicas-only', '--quick'])).toEqual(QUICK_SIZES);
    expect(parseReplicasArgs(['--quick', '--subscribers', '1000', '--writes', '50'])).toEqual({ ...QUICK_SIZES, subscribers: 1_000, writes: 50 });
  });

  it('refuses a size that is not a whole number of at least 1', () => {
    expect(() => parseReplicasArgs(['--runs', '0'])).toThrow('--runs needs a whole number of at least 1, not "0"');
    expect(() => parseReplicasArgs(['--subscribers'])).toThrow('--subscribers needs a whole number');
    expect(() => parseReplicasArgs(['--writes', '2.5'])).toThrow('--writes');
  });
});

describe('replicasSection', () => {
  const section = replicasSection(result);

  it('reports medians, failures, the kill, the checks, the fan-out and both dialects', () => {
    expect(section).toContain('| one replica | 200 | 20.0 | 0 |');
    expect(section).toContain('| three replicas | 150 | 12.0 | 2 |');
    expect(section).toContain('One of the three replicas (replica 2, counted from 0) killed with SIGKILL 2 s into a 6 s run: **0 failed requests** of 4,200');
    expect(section).toContain('replica 0 recorded its next check **8.0 s** after the SIGKILL (the claim the killed replica had set fell due 8.0 s after it), 10.0 s after the last check before the kill (interval 10 s)');
    expect(section).toContain('every subscriber mailed **85.4 s** after the incident was created; 10,000 distinct recipients, **0 mailed twice**');
    expect(section).toContain('| Conformance suite, `vitest run` of 8 files (71 tests per dialect), wall | 10.0 s | 25.0 s | × 2.50 |');
    expect(section).toContain('| API write (`POST /incidents`), p99, 400 each | 100.0 ms | 250.0 ms | × 2.50 |');
    expect(section).toContain('load average (1 min) 1.2 at the start, 2.5 at the end');
  });

  it('says so when the checks did not resume or the fan-out did not finish', () => {
    const missed = replicasSection({ ...result, checksResume: { ...result.checksResume, resumedAfterSeconds: null, resumedBy: null, gapSeconds: null }, fanOut: { ...result.fanOut, seconds: null, mailed: 9_000 } });
    expect(missed).toContain('no check of it was recorded within 40 s of the kill (**missed**)');
    expect(missed).toContain('only 9,000 mailed within 300 s (**missed**)');
  });

  it('replaces the block between its markers and leaves the rest', () => {
    const docs = '# Benchmarks\n\n## Replicas\n\nBefore.\n\n<!-- replicas:start -->\nold\n<!-- replicas:end -->\n\nAfter.\n';
    const next = withReplicasSection(docs, section);
    expect(next).toBe(`# Benchmarks\n\n## Replicas\n\nBefore.\n\n${section}\n\nAfter.\n`);
    expect(withReplicasSection(next, section)).toBe(next);
    expect(withReplicasSection('# Benchmarks\n', section)).toBe(`# Benchmarks\n\n## Replicas\n\n${section}\n`);
  });
});

describe('summarizeJunit', () => {
  it('counts tests and failures and sums the test cases\' times', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="3" failures="0" errors="0" time="2.5">
  <testsuite name="a" tests="2" failures="0" errors="0" skipped="0" time="1.5">
    <testcase classname="a" name="x on sqlite" time="0.25"></testcase>
    <testcase classname="a" name="y on sqlite" time="1"></testcase>
  </testsuite>
  <testsuite name="b" tests="1" failures="1" errors="0" skipped="0" time="1">
    <testcase classname="b" name="z" time="0.5"><failure message="no"/></testcase>
  </testsuite>
</testsuites>`;
    expect(summarizeJunit(xml)).toEqual({ tests: 3, failed: 0, testSeconds: 1.75 });
    expect(summarizeJunit(xml.replace('failures="0" errors="0" time="2.5"', 'failures="1" errors="0" time="2.5"')).failed).toBe(1);
    expect(summarizeJunit('').tests).toBeNaN();
  });
});
