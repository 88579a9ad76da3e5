// The playground (web/) in a real browser: builds the bundle, serves it, and drives Debian's
// chromium with playwright-core. Grounds tic-tac-toe (games/) and a corpus game pasted into the
// page, compares the downloads with the command line's output byte for byte, follows a
// diagnostic to its position, cancels a long run, and saves a screenshot in test-artifacts/.
// Without chromium the file skips, except under CI, where it fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlayground } from '../web/serve.mjs';
import { GAMES_DIR, HAVE_CORPUS, isCi } from './corpus.js';
import { EXAMPLES_DIR } from './examples.js';
import { CLI, ROOT, ensureBuilt, runCli } from './support/cli.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const ARTIFACTS = join(ROOT, 'test-artifacts');
/** Flags for a closed network: without them chromium keeps trying to reach Google's services. */
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** A corpus game ground and compared (about a second), and one that takes far longer than the test waits (amazons: 40 s on the command line). */
const CORPUS_GAME = 'ggp-repository-base/breakthrough.kif';
const LONG_GAME = 'ggp-repository-base/amazons.kif';

if (!HAVE_CHROMIUM && isCi()) {
  it(`has chromium at ${CHROMIUM} (CI: the browser test may not skip)`, () => {
    expect.fail(`no chromium at ${CHROMIUM}; .ci/run installs Debian's chromium`);
  });
} else if (!HAVE_CHROMIUM) console.warn(`test/playground.test.ts skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

/** The state the page's status line is in (idle, running, grounded, done, error, cancelled). */
const state = (page: Page): Promise<string | undefined> => page.$eval('#status', (e) => (e as HTMLElement).dataset.state);

/** Grounds the game in the text area with `playSeconds` of playouts and waits until the outputs are there. */
async function groundInPage(page: Page, playSeconds: number, file: string): Promise<void> {
  await page.fill('#play-seconds', String(playSeconds));
  await page.click('#ground');
  await page.waitForSelector(`a[data-file="${file}"]`, { timeout: 30_000 });
}

/** The bytes of a download link, saved by the browser. */
async function download(page: Page, file: string): Promise<Buffer> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`a[data-file="${file}"]`)]);
  return readFileSync(await d.path());
}

/** The text behind a download link, read in the page. */
function linkText(page: Page, file: string): Promise<string> {
  return page.$eval(`a[data-file="${file}"]`, async (a) => (await fetch((a as HTMLAnchorElement).href)).text());
}

function cli(args: readonly string[]): string {
  const r = runCli(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe.skipIf(!HAVE_CHROMIUM)('the playground in chromium', () => {
  let browser: Browser;
  let page: Page;
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    ensureBuilt();
    server = await startPlayground(0);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('status')?.dataset.state === 'idle');
    expect(errors).toEqual([]);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('grounds tic-tac-toe like the command line, with stats, mutex groups, graph and playouts', async () => {
    await page.selectOption('#game-select', 'tictactoe.kif');
    await groundInPage(page, 0.5, 'tictactoe.gdl');
    const game = join(EXAMPLES_DIR, 'tictactoe.kif');
    expect((await download(page, 'tictactoe.gdl')).equals(Buffer.from(cli(['ground', game])))).toBe(true);
    expect(await linkText(page, 'tictactoe.json')).toBe(cli(['ground', '--json', game]));
    expect(await page.textContent('#stats-table')).toContain('instantiate');
    expect(await page.textContent('#mutex-bits')).toMatch(/bits per state: 19 \(fluents: 29\)/);
    await page.waitForSelector('#graph-svg', { timeout: 15_000 });
    await page.waitForFunction(() => document.querySelectorAll('#playout-table tbody tr').length === 2, null, { timeout: 15_000 });
    await page.waitForFunction(() => document.getElementById('status')?.dataset.state === 'done');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground.png'), fullPage: true });
  }, 40_000);

  it('writes the GDDL files of the command line', async () => {
    const dir = join(ARTIFACTS, 'tictactoe-gddl');
    // Run beside the game: the domain's header names the game as given, and the page's is `tictactoe.kif`.
    const r = spawnSync(process.execPath, [CLI, 'ground', '--format', 'gddl', '-o', dir, 'tictactoe.kif'], { cwd: EXAMPLES_DIR, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    for (const f of ['domain', 'problem', 'partition']) expect(await linkText(page, `tictactoe/${f}.gddl`)).toBe(readFileSync(join(dir, `${f}.gddl`), 'utf8'));
  });

  it('shows a diagnostic at its position and selects it in the text', async () => {
    await page.selectOption('#game-select', 'buttons.kif');
    await groundInPage(page, 0, 'buttons.gdl');
    const first = page.locator('#diagnostics-list button.position').first();
    expect(await first.textContent()).toBe('buttons.kif:15:1');
    await first.click();
    const text = readFileSync(join(EXAMPLES_DIR, 'buttons.kif'), 'utf8');
    const offset = text.split('\n').slice(0, 14).reduce((n, l) => n + l.length + 1, 0);
    expect(await page.$eval('#game-text', (t) => (t as HTMLTextAreaElement).selectionStart)).toBe(offset);
  });

  it.skipIf(!HAVE_CORPUS)(`grounds a pasted corpus game (${CORPUS_GAME}) like the command line`, async () => {
    const path = join(GAMES_DIR, CORPUS_GAME);
    await page.selectOption('#game-select', '');
    await page.fill('#game-text', readFileSync(path, 'utf8'));
    await page.fill('#game-name', 'breakthrough.kif');
    await groundInPage(page, 0, 'breakthrough.gdl');
    expect((await download(page, 'breakthrough.gdl')).equals(Buffer.from(cli(['ground', path])))).toBe(true);
  }, 40_000);

  it.skipIf(!HAVE_CORPUS)(`cancels a long run (${LONG_GAME})`, async () => {
    await page.selectOption('#game-select', '');
    await page.fill('#game-text', readFileSync(join(GAMES_DIR, LONG_GAME), 'utf8'));
    await page.fill('#game-name', 'amazons.kif');
    await page.fill('#play-seconds', '0');
    await page.click('#ground');
    await page.waitForTimeout(2000);
    expect(await state(page)).toBe('running');
    expect(await page.textContent('#status')).toMatch(/^grounding: \S+ \(\d+\.\d s\)$/);
    await page.click('#cancel');
    expect(await state(page)).toBe('cancelled');
    expect(await page.textContent('#status')).toMatch(/^cancelled after \d+\.\d s \(during \S+\)$/);
    expect(await page.isDisabled('#cancel')).toBe(true);
    await page.waitForTimeout(500);
    expect(await state(page)).toBe('cancelled');
    expect(await page.locator('a[data-file="amazons.gdl"]').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-cancelled.png') });
  }, 20_000);
});
