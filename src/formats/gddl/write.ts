/**
 * The three GDDL files of a {@link GddlModel} (grammar in docs/gddl.md): the domain (roles,
 * predicates, derived predicates, multi-actions, rewards), the problem (initial state, terminal
 * condition) and the partition (mutex groups, singletons included). Deterministic byte for
 * byte; past the run's deadline a limit error.
 */
import { type Formula, type Step, postOrder } from '../../axioms/formula.js';
import { Deadline } from '../../deadline.js';
import type { GddlModel } from './model.js';
import { TRUE_NAME } from './names.js';
import { NO_POS } from '../../gdl/ast.js';
import { deadlineError } from '../../gdl/diagnostics.js';
import type { GddlFiles } from './options.js';


/** Writes formulas of one model; the text of each root written is kept (roots recur across multi-actions). */
class FormulaWriter {
  private readonly roots = new Map<number, string>();

  constructor(private readonly names: readonly string[], private readonly step: Step) {}

  text(root: Formula): string {
    const known = this.roots.get(root.id);
    if (known !== undefined) return known;
    const text = new Map<number, string>();
    postOrder([root], (f) => {
      let s: string;
      if (f.kind === 'atom') s = `(${this.names[f.atom]!})`;
      else if (f.kind === 'true') s = `(${TRUE_NAME})`;
      else if (f.kind === 'false') s = `(not (${TRUE_NAME}))`;
      else if (f.kind === 'not') s = `(not ${text.get(f.arg.id)!})`;
      else s = `(${f.kind} ${f.args.map((a) => text.get(a.id)!).join(' ')})`;
      text.set(f.id, s);
    }, this.step);
    const out = text.get(root.id)!;
    this.roots.set(root.id, out);
    return out;
  }
}

function domainLines(model: GddlModel, w: FormulaWriter, deadline: Deadline, file: string): string[] {
  const lines = [`; GDDL domain of ${file}, written by gdl-grounder (grammar: docs/gddl.md)`, `(define (domain ${model.name})`];
  lines.push(`  (:roles ${model.roles.join(' ')})`);
  lines.push('  (:predicates');
  lines.push(`    (${TRUE_NAME})`);
  for (const f of model.fluents) lines.push(`    (${f})`);
  for (const d of model.derived) lines.push(`    (${d.name})`);
  lines[lines.length - 1] += ')';
  for (const d of model.derived) lines.push(`  (:derived (${d.name}) :stratum ${d.stratum} :condition ${w.text(d.condition)})`);
  for (const a of model.actions) {
    if (deadline.passed()) throw deadlineError(deadline, file, NO_POS, 'writing GDDL');
    const players = model.roles.map((r, i) => `:player ${r} :action ${model.moves[i]![a.moves[i]!]!}`).join(' ');
    lines.push(`  (:multi-action ${players}`);
    lines.push(`    :global-precondition ${w.text(a.precondition)}`);
    for (const e of a.effects) lines.push(`    :precondition ${w.text(e.condition)} :effect (${e.fluent})`);
    lines[lines.length - 1] += ')';
  }
  for (const r of model.rewards) lines.push(`  (:reward :player ${r.role} :value ${r.value} :condition ${w.text(r.condition)})`);
  lines.push(')');
  return lines;
}

function problemLines(model: GddlModel, w: FormulaWriter, file: string): string[] {
  return [
    `; GDDL problem of ${file}, written by gdl-grounder (grammar: docs/gddl.md)`,
    `(define (problem ${model.name})`,
    `  (:domain ${model.name})`,
    `  (:init${model.init.map((f) => ` (${f})`).join('')})`,
    `  (:terminal ${w.text(model.terminal)})`,
    ')',
  ];
}

function partitionLines(model: GddlModel, file: string): string[] {
  const lines = [`; GDDL partition of ${file}, written by gdl-grounder (grammar: docs/gddl.md)`, `(define (partition ${model.name})`, `  (:domain ${model.name})`];
  for (const g of model.groups) {
    lines.push(`  (:group :${g.status}${g.exactlyOne ? ' :exactly-one' : ''}${g.members.map((m) => ` (${m})`).join('')})`);
  }
  lines.push(')');
  return lines;
}

/** The three files of `model`, each ending with a line end. `file` is the game's file, for the comments. */
export function writeGddl(model: GddlModel, file: string, deadline: Deadline): GddlFiles {
  const step: Step = () => {
    if (deadline.tick()) throw deadlineError(deadline, file, NO_POS, 'writing GDDL');
  };
  const w = new FormulaWriter(model.atomName, step);
  const join = (lines: string[]): string => `${lines.join('\n')}\n`;
  return {
    domain: join(domainLines(model, w, deadline, file)),
    problem: join(problemLines(model, w, file)),
    partition: join(partitionLines(model, file)),
  };
}
