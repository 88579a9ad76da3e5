/**
 * The ground game as JSON for programs: every ground atom once, by integer id (its index in
 * `atoms`), and rules as `[head, [positive ids], [negative ids]]`. The schema is documented in
 * docs/ground.md; output is deterministic byte for byte, one rule per line.
 */
import { Deadline } from '../../deadline.js';
import { deadlineTicker } from '../../gdl/diagnostics.js';
import { SEES } from '../../gdl/keywords.js';
import type { GroundGame } from '../../ground/types.js';
import { lazyJson } from '../gdl/lazy.js';

/** Version of the JSON layout; bumped on any incompatible change. */
export const JSON_FORMAT = 'gdl-ground/1';

const id = (n: number): number | null => (n < 0 ? null : n);

/** A goal value as a number when it is a plain integer (as GDL requires), else as text. */
function goalValue(text: string): number | string {
  return /^(0|[1-9][0-9]{0,8})$/.test(text) ? Number(text) : text;
}

/** The `(sees R P)` atoms (GDL-II, docs/gdl2.md) as `{role, percept, atom}`, in atom order. */
function percepts(game: GroundGame): { role: string; percept: string; atom: number }[] {
  const sees = game.terms.findSymbol(SEES);
  const out: { role: string; percept: string; atom: number }[] = [];
  game.atoms.forEach((a, i) => {
    if (a.rel === sees && a.args.length === 2) out.push({ role: game.terms.text(a.args[0]!), percept: game.terms.text(a.args[1]!), atom: i });
  });
  return out;
}

/** Writes `items` as a JSON array, one item per line, calling `tick` per item. */
function block(name: string, items: readonly unknown[], tick: () => void, last = false): string {
  const body = items.map((x) => {
    tick();
    return `    ${JSON.stringify(x)}`;
  }).join(',\n');
  return `  ${JSON.stringify(name)}: [${items.length === 0 ? '' : `\n${body}\n  `}]${last ? '' : ','}`;
}

/**
 * The ground game as JSON with integer ids, for programs; ends with `\n`. Past a limit of
 * `deadline` (looked at per item) it throws a limit error.
 */
export function emitJson(game: GroundGame, deadline: Deadline): string {
  const tick = deadlineTicker(deadline, game.file, 'writing the ground game');
  const vocab = game.vocabulary;
  const text = (t: number): string => game.terms.text(t);
  const seen = percepts(game);
  const parts = [
    '{',
    `  "format": ${JSON.stringify(JSON_FORMAT)},`,
    `  "roles": ${JSON.stringify(game.roles.map((r) => game.terms.text(r)))},`,
    block('atoms', game.atoms.map((a) => game.terms.text(a.term)), tick),
    `  "init": ${JSON.stringify(game.init)},`,
    `  "terminal": ${JSON.stringify(id(vocab.terminal))},`,
    block('fluents', vocab.fluents.map((f) => ({ term: text(f.term), true: id(f.trueId), next: id(f.nextId) })), tick),
    block('moves', vocab.moves.map((m) => ({ role: text(m.role), action: text(m.action), does: id(m.doesId), legal: id(m.legalId) })), tick),
    block('goals', vocab.goals.map((g) => ({ role: text(g.role), value: goalValue(text(g.value)), atom: g.id })), tick),
    // GDL-II only (a game without sees atoms is written as before): what each role perceives.
    ...(seen.length === 0 ? [] : [block('percepts', seen, tick)]),
    block('rules', game.rules.map((r) => [r.head, r.pos, r.neg]), tick, game.lazy === undefined),
    // With lazy axioms (docs/lazy.md) only: the non-ground part, as text.
    ...(game.lazy === undefined ? [] : [`  "lazy": ${JSON.stringify(lazyJson(game))}`]),
    '}',
  ];
  return `${parts.join('\n')}\n`;
}
