// The one options parser of the command line: counts are whole numbers in every command, the
// two atom limits are set apart, and the options of a run carry one deadline.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/io.js';
import { totalmem } from 'node:os';
import { initialHeapMb, requestedMemoryMb } from '../src/cli/thread.js';
import { INITIAL_HEAP_MB, LAZY_INITIAL_HEAP_MB, defaultMaxMemoryMb, heapForMemoryLimit } from '../src/runtime.js';
import { limitSettings, parseChoice, parseSeconds, parseWhole, resolveFlags } from '../src/cli/options.js';
import { defaultPipelineOptions, resolvePipelineOptions } from '../src/pipeline/stages.js';

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
    const memory = { maxMemoryMb: defaultMaxMemoryMb() };
    expect(limitSettings({ maxAtoms: '7' })).toEqual({ maxReachAtoms: 7, ...memory });
    expect(limitSettings({ maxGroundAtoms: '8', maxRules: '9' })).toEqual({ maxGroundAtoms: 8, maxGroundRules: 9, ...memory });
    const o = resolveFlags({ method: 'dg', maxAtoms: '7' });
    expect([o.method, o.maxReachAtoms, o.maxGroundAtoms, o.maxGroundRules])
      .toEqual(['dg', 7, defaultPipelineOptions().maxGroundAtoms, defaultPipelineOptions().maxGroundRules]);
  });

  it('puts --max-memory (default: half the machine) into the run\'s deadline', () => {
    expect(resolveFlags({ maxMemory: '300' }).deadline.maxHeapBytes).toBe(300 * 1024 * 1024);
    expect(resolveFlags({}).deadline.maxHeapBytes).toBe(defaultMaxMemoryMb() * 1024 * 1024);
    expect(defaultMaxMemoryMb()).toBe(Math.max(512, Math.floor(totalmem() / 1048576 / 2)));
    expect(() => resolveFlags({ maxMemory: '1.5' })).toThrow(/--max-memory needs a whole number/);
    // A limit that every run passes at once: the deadline reports memory, and words it so.
    const d = resolveFlags({ maxMemory: '1' }).deadline;
    expect(d.exceeded()).toBe('memory');
    expect(d.describe()).toBe('memory limit of 1 MB reached');
  });

  it('asks V8 for a heap above the memory limit, and reads --max-memory before the options parser', () => {
    expect(heapForMemoryLimit(100)).toBe(612);
    expect(heapForMemoryLimit(4000)).toBe(6000);
    expect(requestedMemoryMb(['ground', 'g.kif', '--max-memory', '900'])).toBe(900);
    expect(requestedMemoryMb(['ground', '--max-memory=1200', 'g.kif'])).toBe(1200);
    expect(requestedMemoryMb(['ground', 'g.kif', '--max-memory', 'lots'])).toBe(defaultMaxMemoryMb());
    expect(requestedMemoryMb(['ground', '--', '--max-memory', '900'])).toBe(defaultMaxMemoryMb());
  });

  it('starts the heap lower for a run with lazy axioms, read before the options parser', () => {
    expect(initialHeapMb(['ground', 'g.kif', '--lazy-axioms'])).toBe(LAZY_INITIAL_HEAP_MB);
    expect(initialHeapMb(['ground', 'g.kif'])).toBe(INITIAL_HEAP_MB);
    expect(initialHeapMb(['ground', '--', '--lazy-axioms'])).toBe(INITIAL_HEAP_MB);
    expect(LAZY_INITIAL_HEAP_MB).toBeLessThan(INITIAL_HEAP_MB);
  });

  it('resolves one deadline, counted from the start of the process', () => {
    const o = resolveFlags({ timeout: '2' });
    expect(o.deadline.at).toBe(performance.timeOrigin + 2000);
    const before = Date.now();
    const p = resolvePipelineOptions({ timeoutSeconds: 2 });
    expect(p.deadline.at).toBeGreaterThanOrEqual(before + 2000);
    expect(p.deadline.at).toBeLessThanOrEqual(Date.now() + 2000);
    expect(resolveFlags({}).deadline.at).toBe(Infinity);
    expect(() => resolveFlags({ method: 'fast' })).toThrow("--method must be 'prolog', 'prolog-plain' or 'dg', not 'fast'");
  });
});
