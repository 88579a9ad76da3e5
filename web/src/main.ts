/**
 * The playground page: pick or paste a game, ground it in a Web Worker (worker.ts) with a
 * progress line and a cancel button, and show what the command line shows: diagnostics at
 * their positions, the `--stats` table, the ground game in every format to download, the
 * mutex groups, the dependency graph drawn by Graphviz (WebAssembly), and random playouts
 * per second of the fast simulator beside Tau-Prolog's reasoner.
 */
import { instance as vizInstance } from '@viz-js/viz';
import type { EngineRate, GroundRequest, OutputFile, WebDiagnostic, WorkerMessage } from './protocol.js';
import { diagnosticsView, downloadLink, downloadsView, el, mutexView, playoutView, statsView } from './views.js';

/** Above this many characters of DOT the graph is offered as a file, not drawn (Graphviz would take long). */
const MAX_DRAWN_DOT = 200_000;

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const ui = {
  select: $<HTMLSelectElement>('game-select'),
  name: $<HTMLInputElement>('game-name'),
  file: $<HTMLInputElement>('game-file'),
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
  /** Seconds the grounding took, once the ground game is there. */
  grounded?: number;
  readonly rates: EngineRate[];
  readonly files: OutputFile[];
  /** The download link of each file, kept when the list is drawn again. */
  readonly links: Map<string, HTMLAnchorElement>;
  summary: readonly string[];
  readonly skipped: { format: string; reason: string }[];
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

/** The progress line: the stage under way and the time since the start. */
function progress(run: Run): void {
  if (ui.status.dataset.state === 'error') return;
  if (run.grounded === undefined) setStatus('running', `grounding: ${run.stage} (${seconds(run)})`);
  else setStatus('grounded', `grounded in ${run.grounded.toFixed(2)} s; working: ${run.stage} (${seconds(run)})`);
}

function showDownloads(run: Run, pending: readonly string[]): void {
  ui.outputs.querySelector('#downloads')?.remove();
  const link = (f: OutputFile): HTMLAnchorElement => {
    const a = run.links.get(f.name) ?? downloadLink(f, session.urls);
    run.links.set(f.name, a);
    return a;
  };
  ui.outputs.prepend(downloadsView(run.files, run.skipped, pending, link));
}

/** Handles one message of the current run's worker. */
function onMessage(run: Run, m: WorkerMessage): void {
  if (session.run !== run) return;
  if (m.kind === 'stage') {
    if (m.phase === 'start') run.stage = m.stage;
    progress(run);
  } else if (m.kind === 'warnings') showDiagnostics(m.diagnostics, run.name);
  else if (m.kind === 'error') {
    if (m.diagnostics.length > 0) showDiagnostics(m.diagnostics, run.name);
    else ui.diagnostics.append(el('pre', m.message, { class: 'error' }));
    const first = m.diagnostics[0]?.message ?? m.message.split('\n')[0];
    setStatus('error', `${m.limit ? 'limit reached' : 'error'} after ${seconds(run)}: ${first}`);
  } else if (m.kind === 'grounded') onGrounded(run, m);
  else if (m.kind === 'stats') ui.stats.replaceChildren(statsView(m.stages, run.summary));
  else if (m.kind === 'graph') drawGraph(m.dot, baseName(run.name)).catch((err: unknown) => ui.graph.replaceChildren(el('pre', String(err), { class: 'error' })));
  else if (m.kind === 'playout') {
    run.rates.push(m.rate);
    ui.playouts.replaceChildren(playoutView(run.rates));
  } else if (m.kind === 'mutex') ui.mutex.replaceChildren(m.mutex === undefined ? el('div', `no mutex groups: ${m.failed ?? ''}`, { class: 'note' }) : mutexView(m.mutex));
  else if (m.kind === 'files') {
    run.files.push(...m.files);
    run.skipped.push(...m.skipped);
    showDownloads(run, []);
  } else finish(run);
}

function onGrounded(run: Run, m: Extract<WorkerMessage, { kind: 'grounded' }>): void {
  run.grounded = m.ms / 1000;
  run.summary = m.summary;
  run.files.push(...m.files);
  ui.outputs.replaceChildren();
  const gdl = m.files.find((f) => f.format === 'gdl');
  if (gdl !== undefined) ui.outputs.append(el('pre', gdl.text.length > 20_000 ? `${gdl.text.slice(0, 20_000)}\n...` : gdl.text, { id: 'gdl-preview' }));
  showDownloads(run, ['gddl', 'rddl']);
  ui.mutex.replaceChildren(el('div', 'working…', { class: 'note' }));
  progress(run);
}

function finish(run: Run): void {
  clearInterval(run.ticker);
  run.worker.terminate();
  session.run = undefined;
  ui.cancel.disabled = true;
  if (ui.status.dataset.state !== 'error') setStatus('done', `done in ${seconds(run)}${run.grounded === undefined ? ' (nothing ground)' : `, grounded in ${run.grounded.toFixed(2)} s`}`);
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
  const run: Run = { worker, started: performance.now(), name: req.name, stage: 'starting', rates: [], files: [], links: new Map(), skipped: [], summary: [], ticker: 0 };
  (run as { ticker: number }).ticker = window.setInterval(() => {
    if (session.run === run) progress(run);
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
  setStatus(state, `cancelled after ${seconds(run)} (during ${run.stage}${run.grounded === undefined ? '' : ', after the grounding'})`);
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

/** Reads a game file as the command line does: UTF-8, bytes that are not UTF-8 become U+FFFD. */
async function openFile(): Promise<void> {
  const file = ui.file.files?.[0];
  if (file === undefined) return;
  ui.text.value = new TextDecoder('utf-8', { fatal: false }).decode(await file.arrayBuffer());
  ui.name.value = file.name;
  ui.select.value = '';
  ui.file.value = '';
}

async function init(): Promise<void> {
  session.games = (await (await fetch('games.json')).json()) as Record<string, string>;
  ui.select.replaceChildren(el('option', '(paste a game)', { value: '' }));
  for (const name of Object.keys(session.games)) ui.select.append(el('option', name, { value: name }));
  ui.select.value = 'tictactoe.kif' in session.games ? 'tictactoe.kif' : '';
  pickGame();
  ui.select.addEventListener('change', pickGame);
  ui.file.addEventListener('change', () => void openFile());
  ui.ground.addEventListener('click', ground);
  ui.cancel.addEventListener('click', () => stop('cancelled'));
  ui.text.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) ground();
  });
  setStatus('idle', 'ready: pick or paste a game, then Ground (Ctrl+Enter)');
}

init().catch((err: unknown) => setStatus('error', `cannot start: ${String(err)}`));
