// Shared by the SAT solver's tests: a seeded generator and a brute-force satisfiability check
// over every assignment (formulas of at most ~20 variables).

/** A linear congruential generator: `r(n)` is in 0..n-1, the same sequence for the same seed. */
export function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** Whether some assignment of variables 1..n satisfies every clause and every assumption. */
export function bruteForce(n: number, clauses: number[][], assumptions: number[]): boolean {
  for (let m = 0; m < 1 << n; m++) {
    const val = (l: number): boolean => (((m >> (Math.abs(l) - 1)) & 1) === 1) === l > 0;
    if (assumptions.every(val) && clauses.every((c) => c.some(val))) return true;
  }
  return false;
}
