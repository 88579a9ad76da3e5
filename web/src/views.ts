/**
 * The playground's result views: plain DOM built from the worker's messages (stats table,
 * downloads, mutex groups, playout rates, diagnostics).
 */
import type { EngineRate, OutputFile, StageRow, WebDiagnostic, WebMutex } from './protocol.js';

/** An element with text and optional attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== '') e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** A table with a header row and string cells; numeric columns are right-aligned by class. */
function table(head: readonly string[], rows: readonly (readonly string[])[], numeric: readonly number[] = []): HTMLTableElement {
  const t = el('table');
  const tr = el('tr');
  head.forEach((h, i) => tr.append(el('th', h, numeric.includes(i) ? { class: 'num' } : {})));
  t.append(el('thead'));
  t.tHead!.append(tr);
  const body = el('tbody');
  for (const row of rows) {
    const r = el('tr');
    row.forEach((c, i) => r.append(el('td', c, numeric.includes(i) ? { class: 'num' } : {})));
    body.append(r);
  }
  t.append(body);
  return t;
}

/** The `--stats` table: one row per stage, a total line (the stages' sum), then the summary lines. */
export function statsView(stages: readonly StageRow[], summary: readonly string[]): HTMLElement {
  const box = el('div');
  const rows = stages.map((s) => [s.stage, s.ms.toFixed(1), Object.entries(s.counts).map(([k, v]) => `${k}=${v}`).join(' ')]);
  rows.push(['total', stages.reduce((n, s) => n + s.ms, 0).toFixed(1), '']);
  const t = table(['stage', 'ms', 'counts'], rows, [1]);
  t.id = 'stats-table';
  box.append(t);
  for (const line of summary) box.append(el('div', line, { class: 'note' }));
  return box;
}

/** Byte size of a text as UTF-8, for the download list. */
function size(text: string): string {
  const n = new TextEncoder().encode(text).length;
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
}

/** A download link for one text (a blob URL; `data-file` names it for the test). */
export function downloadLink(file: OutputFile, urls: string[]): HTMLAnchorElement {
  const url = URL.createObjectURL(new Blob([file.text], { type: 'text/plain;charset=utf-8' }));
  urls.push(url);
  const a = el('a', file.name.split('/').pop() ?? file.name, { href: url, download: file.name.replace(/\//g, '_'), 'data-file': file.name, 'data-format': file.format });
  a.title = `${file.name}, ${size(file.text)}`;
  return a;
}

/**
 * The downloads, one line per format, the reasons a format was not written, and `working…` for
 * the formats still being made (`pending`). `link` makes (or finds again) each file's link.
 */
export function downloadsView(files: readonly OutputFile[], skipped: readonly { format: string; reason: string }[], pending: readonly string[], link: (f: OutputFile) => HTMLAnchorElement): HTMLElement {
  const box = el('div', '', { id: 'downloads' });
  for (const format of ['gdl', 'json', 'gddl', 'rddl']) {
    const line = el('div', '', { class: 'download-line' });
    line.append(el('span', format.toUpperCase(), { class: 'format' }));
    for (const f of files.filter((x) => x.format === format)) line.append(link(f), el('span', size(f.text), { class: 'size' }));
    for (const s of skipped.filter((x) => x.format === format)) line.append(el('span', s.reason, { class: 'skipped' }));
    if (pending.includes(format)) line.append(el('span', 'working…', { class: 'skipped' }));
    box.append(line);
  }
  return box;
}

/** The mutex groups with the bits per state of their encoding. */
export function mutexView(m: WebMutex): HTMLElement {
  const box = el('div', '', { id: 'mutex' });
  const proven = m.groups.filter((g) => g.proven).length;
  box.append(el('div', `bits per state: ${m.bits} (fluents: ${m.fluents}); ${m.groups.length} groups, ${proven} proven`, { class: 'headline', id: 'mutex-bits' }));
  const rows = m.groups.map((g) => [`${g.proven ? 'proven' : 'observed'}${g.exactlyOne ? ', exactly one' : ''}`, g.relation, String(g.members.length), g.members.join(' ')]);
  if (rows.length > 0) box.append(table(['kind', 'relation', 'size', 'members'], rows, [2]));
  return box;
}

/** The playout rates, one row per engine, and the factor between them (slide 4 of the lecture). */
export function playoutView(rates: readonly EngineRate[]): HTMLElement {
  const box = el('div');
  const rows = rates.map((r) => [r.engine, r.playoutsPerSecond.toFixed(1), r.statesPerSecond.toFixed(0), r.averageDepth.toFixed(1), String(r.playouts), r.elapsed.toFixed(2)]);
  const t = table(['engine', 'playouts/s', 'states/s', 'depth', 'playouts', 's'], rows, [1, 2, 3, 4, 5]);
  t.id = 'playout-table';
  box.append(t);
  const [fast, prolog] = rates;
  if (fast !== undefined && prolog !== undefined && prolog.statesPerSecond > 0) {
    box.append(el('div', `the fast simulator makes ${(fast.statesPerSecond / prolog.statesPerSecond).toFixed(1)} times as many states per second as the reasoner`, { class: 'headline' }));
  }
  return box;
}

/** The diagnostics, each a button that selects its position in the text area. */
export function diagnosticsView(list: readonly WebDiagnostic[], name: string, select: (d: WebDiagnostic) => void): HTMLElement {
  const box = el('ul', '', { id: 'diagnostics-list' });
  for (const d of list) {
    const li = el('li', '', { class: d.severity });
    const at = el('button', `${name}:${d.line}:${d.col}`, { class: 'position', type: 'button' });
    at.addEventListener('click', () => select(d));
    li.append(at, el('span', ` ${d.severity}: ${d.message}`));
    box.append(li);
  }
  return box;
}
