// Large inputs for the parse/validate scale checks (issue 27): ticTacToe with many generated
// static facts and a rule that reads them, written to a file or returned as text. Generated on
// demand so that no large file is committed. `node scripts/big-game.mjs OUT.kif [--facts N]
// [--one-line]`: N facts (default 500,000, about 50 MB), all on one line with --one-line.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TIC_TAC_TOE = `(role xplayer) (role oplayer)
(index 1) (index 2) (index 3)
(init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 1 3 b))
(init (cell 2 1 b)) (init (cell 2 2 b)) (init (cell 2 3 b))
(init (cell 3 1 b)) (init (cell 3 2 b)) (init (cell 3 3 b))
(init (control xplayer))
(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n o)) (does oplayer (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))
(<= (next (cell ?m ?n b)) (does ?w (mark ?j ?k)) (true (cell ?m ?n b)) (or (distinct ?m ?j) (distinct ?n ?k)))
(<= (next (control xplayer)) (true (control oplayer)))
(<= (next (control oplayer)) (true (control xplayer)))
(<= (row ?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (true (cell ?m 3 ?x)))
(<= (column ?n ?x) (true (cell 1 ?n ?x)) (true (cell 2 ?n ?x)) (true (cell 3 ?n ?x)))
(<= (diagonal ?x) (true (cell 1 1 ?x)) (true (cell 2 2 ?x)) (true (cell 3 3 ?x)))
(<= (diagonal ?x) (true (cell 1 3 ?x)) (true (cell 2 2 ?x)) (true (cell 3 1 ?x)))
(<= (line ?x) (row ?m ?x)) (<= (line ?x) (column ?m ?x)) (<= (line ?x) (diagonal ?x))
(<= open (true (cell ?m ?n b)))
(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))
(<= (legal xplayer noop) (true (control oplayer)))
(<= (legal oplayer noop) (true (control xplayer)))
(<= (goal xplayer 100) (line x)) (<= (goal xplayer 50) (not (line x)) (not (line o)) (not open))
(<= (goal xplayer 0) (line o)) (<= (goal oplayer 100) (line o))
(<= (goal oplayer 50) (not (line x)) (not (line o)) (not open)) (<= (goal oplayer 0) (line x))
(<= terminal (line x)) (<= terminal (line o)) (<= terminal (not open))
`;

/** The rule that reads the facts: the centre's mark is "weighed" by a fact whose first key is 1. */
const READER = '(<= (weighed ?x) (true (cell 2 2 ?x)) (edge (node 1 ?l) ?to (weight ?w) (colour ?c)))\n'
  + '(<= terminal (weighed x) (weighed o))\n';

const COLOURS = ['red', 'green', 'blue', 'yellow'];

/** One generated static fact, about 100 bytes. */
function fact(i) {
  return `(edge (node ${i % 1000} left_hand_side_${i}) (node ${(i * 7919) % 500000} right_hand_side) `
    + `(weight ${i % 97}) (colour ${COLOURS[i % 4]}))`;
}

/**
 * ticTacToe, a rule reading `facts` generated facts, and the facts, one a line (or all on one
 * line when `oneLine`), as text.
 */
export function bigGame({ facts = 500000, oneLine = false } = {}) {
  const parts = [TIC_TAC_TOE, READER];
  const sep = oneLine ? ' ' : '\n';
  for (let i = 0; i < facts; i++) parts.push(fact(i), sep);
  parts.push('\n');
  return parts.join('');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const out = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--facts');
  if (!out) {
    process.stderr.write('usage: node scripts/big-game.mjs OUT.kif [--facts N] [--one-line]\n');
    process.exitCode = 2;
  } else {
    const n = args.includes('--facts') ? Number(args[args.indexOf('--facts') + 1]) : 500000;
    writeFileSync(out, bigGame({ facts: n, oneLine: args.includes('--one-line') }));
  }
}
