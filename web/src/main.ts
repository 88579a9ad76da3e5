/**
 * The playground page: pick or paste a game, ground it in a Web Worker (worker.ts) with a
 * progress line and a cancel button, and show what the command line shows: diagnostics at
 * their positions, the `--stats` table, the ground game in every format to download, the
 * mutex groups, the dependency graph drawn by Graphviz (WebAssembly), and random playouts
 * per second of the fast simulator beside Tau-Prolog's reasoner.
 */
import { instance as vizInstance } from '@viz-js/viz';
import type { EngineRate, GroundRequest, WebDiagnostic, WorkerMessage } from './protocol.js';
import { diagnosticsView, downloadLink, downloadsView, el, mutexView, playoutView, statsView } from './views.js';

/** Above this many characters of DOT the graph is offered as a file, not drawn (Graphviz would take long). */
const MAX_DRAWN_DOT = 200_000;

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const ui = {
  select: $<HTMLSelectElement>('game-select'),
  name: $<HTMLInputElement>('game-name'),
  text: $<HTMLTextAreaElement>('game-text'),
  method: $<HTMLSelectElement>('method'),
  lazy: $<HTMLInputElement>('lazy'),
  timeout: $<HTMLInputElement>('timeout'),
  play: $<HTMLInputElement>('play-seconds'),
  ground: $<HTMLButtonElement>('ground'),
  cancel: $<HTMLButtonElement>('cancel'),
  status: $<HTMLDivElement>('status'),
  diagnostics: $<HTMLDivElement>('diagnostics'),
  stats: $<HTMLDivElement>('stats'),
  outputs: $<HTMLDivElement>('outputs'),
  mutex: $<HTMLDivElement>('mutex-groups'),
  graph: $<HTMLDivElement>('graph'),
  playouts: $<HTMLDivElement>('playouts'),
};

/** The run under way: its worker, start, current stage, blob URLs and playout rates. */
interface Run {
  readonly worker: Worker;
  readonly started: number;
  readonly name: string;
  stage: string;
  grounded: boolean;
  readonly rates: EngineRate[];
  readonly ticker: number;
}

const session: { run?: Run; urls: string[]; games: Record<string, string> } = { urls: [], games: {} };

function setStatus(state: string, text: string): void {
  ui.status.dataset.state = state;
  ui.status.textContent = text;
}

const seconds = (run: Run): string => `${((performance.now() - run.started) / 1000).toFixed(1)} s`;

/** Selects a diagnostic's position in the text area and scrolls to it. */
function selectPosition(d: WebDiagnostic): void {
  const lines = ui.text.value.split('\n');
  const line = Math.min(Math.max(d.line, 1), lines.length);
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i]!.length + 1;
  const start = offset + Math.max(d.col - 1, 0);
  const end = offset + lines[line - 1]!.length;
  ui.text.focus();
  ui.text.setSelectionRange(start, Math.max(end, start + 1));
  const lineHeight = parseFloat(getComputedStyle(ui.text).lineHeight) || 16;
  ui.text.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

function showDiagnostics(list: readonly WebDiagnostic[], name: string): void {
  ui.diagnostics.replaceChildren();
  if (list.length === 0) return;
  ui.diagnostics.append(el('h3', `${list.length} diagnostic${list.length === 1 ? '' : 's'}`), diagnosticsView(list, name, selectPosition));
}

/** Clears every result view and frees the old downloads. */
function clearResults(): void {
  for (const u of session.urls) URL.revokeObjectURL(u);
  session.urls = [];
  for (const box of [ui.diagnostics, ui.stats, ui.outputs, ui.mutex, ui.graph, ui.playouts]) box.replaceChildren();
}

/** Draws the DOT of `gdl-ground graph` with Graphviz compiled to WebAssembly. */
async function drawGraph(dot: string, name: string): Promise<void> {
  if (dot === '') return;
  const file = { format: 'dot', name: `${name}.dot`, text: dot };
  const note = el('div', 'DOT: ', { class: 'note' });
  note.append(downloadLink(file, session.urls));
  ui.graph.replaceChildren(note);
  if (dot.length > MAX_DRAWN_DOT) {
    ui.graph.append(el('div', `not drawn: ${dot.length} characters of DOT`, { class: 'note' }));
    return;
  }
  const viz = await vizInstance();
  const svg = viz.renderSVGElement(dot);
  svg.id = 'graph-svg';
  ui.graph.append(svg);
}

function baseName(name: string): string {
  return name.replace(/\.(kif|gdl|txt)$/i, '');
}

/** Handles one message of the current run's worker. */
function onMessage(run: Run, m: WorkerMessage): void {
  if (session.run !== run) return;
  if (m.kind === 'stage') {
    if (m.phase === 'start') run.stage = m.stage;
    setStatus('running', `${run.grounded ? 'playing' : 'grounding'}: ${run.stage} (${seconds(run)})`);
  } else if (m.kind === 'warnings') showDiagnostics(m.diagnostics, run.name);
  else if (m.kind === 'error') {
    if (m.diagnostics.length > 0) showDiagnostics(m.diagnostics, run.name);
    else ui.diagnostics.append(el('pre', m.message, { class: 'error' }));
    setStatus('error', `${m.limit ? 'limit reached' : 'error'} after ${seconds(run)}: ${m.message.split('\n')[0]}`);
  } else if (m.kind === 'grounded') onGrounded(run, m);
  else if (m.kind === 'playout') {
    run.rates.push(m.rate);
    ui.playouts.replaceChildren(playoutView(run.rates));
  } else finish(run);
}

function onGrounded(run: Run, m: Extract<WorkerMessage, { kind: 'grounded' }>): void {
  run.grounded = true;
  ui.stats.replaceChildren(statsView(m.stages, m.summary, m.ms));
  ui.outputs.replaceChildren(downloadsView(m.files, m.skipped, session.urls));
  const gdl = m.files.find((f) => f.format === 'gdl');
  if (gdl !== undefined) ui.outputs.append(el('pre', gdl.text.length > 20_000 ? `${gdl.text.slice(0, 20_000)}\n...` : gdl.text, { id: 'gdl-preview' }));
  ui.mutex.replaceChildren(m.mutex === undefined ? el('div', 'no mutex groups', { class: 'note' }) : mutexView(m.mutex));
  setStatus('grounded', `grounded in ${(m.ms / 1000).toFixed(2)} s${Number(ui.play.value) > 0 ? '; playing' : ''}`);
  drawGraph(m.dot, baseName(run.name)).catch((err: unknown) => ui.graph.replaceChildren(el('pre', String(err), { class: 'error' })));
}

function finish(run: Run): void {
  clearInterval(run.ticker);
  run.worker.terminate();
  session.run = undefined;
  ui.cancel.disabled = true;
  if (ui.status.dataset.state !== 'error') setStatus('done', `done in ${seconds(run)}${run.grounded ? '' : ' (nothing ground)'}`);
}

/** Starts a run in a fresh worker (a run already under way is stopped first). */
function ground(): void {
  if (session.run !== undefined) stop('cancelled');
  clearResults();
  const timeout = Number(ui.timeout.value);
  const req: GroundRequest = {
    kind: 'ground',
    name: ui.name.value.trim() || 'game.kif',
    text: ui.text.value,
    method: ui.method.value === 'dg' ? 'dg' : 'prolog',
    lazyAxioms: ui.lazy.checked,
    ...(timeout > 0 ? { timeoutSeconds: timeout } : {}),
    playSeconds: Math.max(0, Number(ui.play.value) || 0),
  };
  const worker = new Worker('worker.js');
  const run: Run = { worker, started: performance.now(), name: req.name, stage: 'starting', grounded: false, rates: [], ticker: 0 };
  (run as { ticker: number }).ticker = window.setInterval(() => {
    if (session.run === run && !run.grounded) setStatus('running', `grounding: ${run.stage} (${seconds(run)})`);
  }, 200);
  session.run = run;
  worker.onmessage = (e: MessageEvent<WorkerMessage>) => onMessage(run, e.data);
  worker.onerror = (e) => {
    setStatus('error', `worker failed: ${e.message}`);
    finish(run);
  };
  ui.cancel.disabled = false;
  setStatus('running', 'grounding: starting');
  worker.postMessage(req);
}

/** Stops the run under way by terminating its worker. */
function stop(state: 'cancelled'): void {
  const run = session.run;
  if (run === undefined) return;
  clearInterval(run.ticker);
  run.worker.terminate();
  session.run = undefined;
  ui.cancel.disabled = true;
  setStatus(state, `cancelled after ${seconds(run)}${run.grounded ? ' (while playing)' : ` (during ${run.stage})`}`);
}

function pickGame(): void {
  const name = ui.select.value;
  if (name === '') {
    ui.text.value = '';
    ui.name.value = 'pasted.kif';
    ui.text.focus();
    return;
  }
  ui.text.value = session.games[name] ?? '';
  ui.name.value = name;
}

async function init(): Promise<void> {
  session.games = (await (await fetch('games.json')).json()) as Record<string, string>;
  ui.select.replaceChildren(el('option', '(paste a game)', { value: '' }));
  for (const name of Object.keys(session.games)) ui.select.append(el('option', name, { value: name }));
  ui.select.value = 'tictactoe.kif' in session.games ? 'tictactoe.kif' : '';
  pickGame();
  ui.select.addEventListener('change', pickGame);
  ui.ground.addEventListener('click', ground);
  ui.cancel.addEventListener('click', () => stop('cancelled'));
  ui.text.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) ground();
  });
  setStatus('idle', 'ready: pick or paste a game, then Ground (Ctrl+Enter)');
}

init().catch((err: unknown) => setStatus('error', `cannot start: ${String(err)}`));
