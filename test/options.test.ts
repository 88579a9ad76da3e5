// The one options parser of the command line: counts are whole numbers in every command, the
// two atom limits are set apart, and the options of a run carry one deadline.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/io.js';
import { limitSettings, parseChoice, parseSeconds, parseWhole, resolveFlags } from '../src/cli/options.js';
import { DEFAULT_PIPELINE_OPTIONS, resolvePipelineOptions } from '../src/pipeline.js';

describe('cli options', () => {
  it('takes counts only as whole numbers', () => {
    expect(parseWhole('12', '--max-atoms')).toBe(12);
    for (const bad of ['1.5', '1e3', 'abc', '-3', '0', '']) expect(() => parseWhole(bad, '--max-atoms'), bad).toThrow(UsageError);
    expect(parseWhole('0', '--seed', true)).toBe(0);
    expect(() => parseWhole('2.5', '--max-rules')).toThrow("--max-rules needs a whole number above 0, not '2.5'");
  });

  it('takes seconds as positive numbers, fractions included', () => {
    expect(parseSeconds('0.5', '--timeout')).toBe(0.5);
    expect(() => parseSeconds('soon', '--timeout')).toThrow(UsageError);
    expect(() => parseSeconds('0', '--timeout')).toThrow(UsageError);
  });

  it('names the choices of an option', () => {
    expect(parseChoice('dg', '--method', ['prolog', 'dg'])).toBe('dg');
    expect(() => parseChoice('svg', '--format', ['dot', 'text'])).toThrow("--format must be 'dot' or 'text', not 'svg'");
  });

  it('sets the superset and the instantiation atom limits apart', () => {
    expect(limitSettings({ maxAtoms: '7' })).toEqual({ maxReachAtoms: 7 });
    expect(limitSettings({ maxGroundAtoms: '8', maxRules: '9' })).toEqual({ maxGroundAtoms: 8, maxGroundRules: 9 });
    const o = resolveFlags({ method: 'dg', maxAtoms: '7' });
    expect([o.method, o.maxReachAtoms, o.maxGroundAtoms, o.maxGroundRules])
      .toEqual(['dg', 7, DEFAULT_PIPELINE_OPTIONS.maxGroundAtoms, DEFAULT_PIPELINE_OPTIONS.maxGroundRules]);
  });

  it('resolves one deadline, counted from the start of the process', () => {
    const o = resolveFlags({ timeout: '2' });
    expect(o.deadline.at).toBe(performance.timeOrigin + 2000);
    const before = Date.now();
    const p = resolvePipelineOptions({ timeoutSeconds: 2 });
    expect(p.deadline.at).toBeGreaterThanOrEqual(before + 2000);
    expect(p.deadline.at).toBeLessThanOrEqual(Date.now() + 2000);
    expect(resolveFlags({}).deadline.at).toBe(Infinity);
    expect(() => resolveFlags({ method: 'fast' })).toThrow("--method must be 'prolog' or 'dg', not 'fast'");
  });
});
