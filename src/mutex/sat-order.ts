/**
 * The decision order of the SAT solver (sat.ts): VSIDS activities of the variables and a binary
 * max-heap of the unassigned ones by activity. Variables here are 0-based (the solver's 1-based
 * variable minus one). Kept apart from the search so that each file reads on its own.
 */

/** Activity above which every activity (and the increment) is scaled down by {@link RESCALE_BY}, to stay finite. */
const RESCALE_ABOVE = 1e100;
const RESCALE_BY = 1e-100;

/** The factor the activity increment grows by per conflict: older bumps count less (1 / 0.95). */
const DECAY = 0.95;

/** Variable activities and the heap of candidates for the next decision; not shared between solvers. */
export class VarOrder {
  private activity: Float64Array = new Float64Array(16);
  private heap: number[] = [];
  private heapPos: Int32Array = new Int32Array(16).fill(-1);
  private inc = 1;

  /** Makes room for variables below `size` (a capacity, grown by the solver with its own arrays). */
  grow(size: number): void {
    const pos = new Int32Array(size).fill(-1);
    pos.set(this.heapPos);
    this.heapPos = pos;
    const act = new Float64Array(size);
    act.set(this.activity);
    this.activity = act;
  }

  /** A new variable `v`, not yet in the heap: put it there. */
  add(v: number): void {
    this.heapPos[v] = -1;
    this.insert(v);
  }

  /** Raises `v` to at least the current increment, so that it is decided before the variables never bumped. */
  prefer(v: number): void {
    this.activity[v] = Math.max(this.activity[v]!, this.inc);
    if (this.heapPos[v]! >= 0) this.siftUp(this.heapPos[v]!);
  }

  /** Puts `v` back among the candidates (it was unassigned) unless it is there already. */
  restore(v: number): void {
    if (this.heapPos[v]! < 0) this.insert(v);
  }

  /** The most active candidate, taken out of the heap; -1 when none is left. */
  pop(): number {
    if (this.heap.length === 0) return -1;
    const top = this.heap[0]!;
    const last = this.heap.pop()!;
    this.heapPos[top] = -1;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.heapPos[last] = 0;
      this.siftDown(0);
    }
    return top;
  }

  /** Bumps `v` (it took part in a conflict); `count` variables exist, all rescaled when one grows too large. */
  bump(v: number, count: number): void {
    this.activity[v] += this.inc;
    if (this.activity[v]! > RESCALE_ABOVE) {
      for (let i = 0; i < count; i++) this.activity[i] *= RESCALE_BY;
      this.inc *= RESCALE_BY;
    }
    if (this.heapPos[v]! >= 0) this.siftUp(this.heapPos[v]!);
  }

  /** After a conflict: later bumps weigh more. */
  decay(): void {
    this.inc /= DECAY;
  }

  private insert(v: number): void {
    this.heapPos[v] = this.heap.length;
    this.heap.push(v);
    this.siftUp(this.heap.length - 1);
  }

  private siftUp(i: number): void {
    const v = this.heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const u = this.heap[parent]!;
      if (this.activity[u]! >= this.activity[v]!) break;
      this.heap[i] = u;
      this.heapPos[u] = i;
      i = parent;
    }
    this.heap[i] = v;
    this.heapPos[v] = i;
  }

  private siftDown(i: number): void {
    const v = this.heap[i]!;
    const n = this.heap.length;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.activity[this.heap[child + 1]!]! > this.activity[this.heap[child]!]!) child++;
      const u = this.heap[child]!;
      if (this.activity[u]! <= this.activity[v]!) break;
      this.heap[i] = u;
      this.heapPos[u] = i;
      i = child;
    }
    this.heap[i] = v;
    this.heapPos[v] = i;
  }
}
