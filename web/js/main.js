// The page: one board showing either a game the server referees (played
// here, over the network, against the engine, or watched) or a loaded SGF
// being stepped through; the panels around it start games, open files,
// and ask the explorer and the engine about the position on the board.
import { BoardView } from './board.js';
import { parsePoint } from './coords.js';
import { LiveGame } from './game.js';
import { Net } from './net.js';
import { $, clearNotice, colorName, download, notice } from './ui.js';

const app = {
  net: null,
  board: null,
  welcome: null,
  game: null,       // LiveGame
  review: null,     // {size, setup, moves, info, handicap, ru, text, name}
  step: 0,          // the move shown (review, or a game's history)
  positions: new Map(),  // step -> state, for the review line
  listeners: [],    // fn(reason): the position on the board changed
};

// ---- the position on the board, for the explorer and the engine ----

// {size, setup, moves, at, handicap, ru, komi, rules, state} or null.
export function currentLine() {
  if (app.game && app.game.state && app.game.settings) {
    const moves = app.game.moves();
    return { size: app.game.settings.size, setup: [], moves, at: atEnd() ? moves.length : app.step,
             komi: app.game.settings.komi, rules: app.game.settings.rules, state: shownState() };
  }
  if (app.review) {
    return { size: app.review.size, setup: app.review.setup, moves: app.review.moves, at: app.step,
             handicap: app.review.info.handicap, ru: app.review.info.rules, komi: app.review.info.komi,
             rules: 'go', state: shownState() };
  }
  return null;
}

export function onPositionChange(fn) { app.listeners.push(fn); }
export function getApp() { return app; }

function lineLength() {
  if (app.game && app.game.state) return app.game.moves().length;
  if (app.review) return app.review.playable;
  return 0;
}

function atEnd() { return app.step >= lineLength(); }

function shownState() {
  if (app.game && app.game.state && atEnd()) return app.game.state;
  return app.positions.get(positionKey(app.step)) || null;
}

function positionKey(step) {
  return (app.game ? 'g' + app.game.id : 'r') + ':' + step;
}

// ---- drawing ----

function render() {
  const st = shownState();
  const size = app.game && app.game.settings ? app.game.settings.size : app.review ? app.review.size : 0;
  if (!size) return;
  app.board.setSize(size);
  if (!st) return;
  const last = st.last ? parsePoint(st.last, size) : null;
  app.board.setPosition(st.board, last);
  const live = app.game && app.game.state && atEnd();
  const over = live && app.game.state.over;
  app.board.setTerritory(over && app.game.state.result && app.game.state.result.owners ? app.game.state.result.owners : null);
  app.board.setGhost(live && app.game.myTurn() ? app.game.state.to_move : null);
  renderStatus(st, live);
  renderClocks();
  renderNav();
  for (const fn of app.listeners) fn();
}

function renderStatus(st, live) {
  const parts = [];
  if (live && st.over) parts.push('Game over');
  else if (st.to_move) parts.push(`${colorName(st.to_move)} to play`);
  parts.push(`move ${st.moves}`);
  parts.push(`captures: Black ${st.captures.B}, White ${st.captures.W}`);
  if (live && !st.over && app.game.seat !== 'both') {
    const mine = app.game.myColor();
    if (app.game.seat === 'watch') parts.push('you are watching');
    else if (app.game.settings.engine && st.to_move === app.game.settings.engine) parts.push('the engine is thinking…');
    else if (mine) parts.push(app.game.myTurn() ? 'your move' : 'waiting for your opponent');
  }
  if (live && st.passes === 1 && !st.over) parts.push(`${colorName(st.to_move === 'B' ? 'W' : 'B')} passed`);
  $('status').textContent = parts.join(' · ');
  const res = $('result');
  if (live && st.over && st.result) {
    res.hidden = false;
    res.textContent = `${st.result.text} — ${st.result.sgf}`;
    res.dataset.sgf = st.result.sgf;
  } else {
    res.hidden = true;
    res.textContent = '';
    delete res.dataset.sgf;
  }
  const canAct = !!live && !st.over && app.game.seat !== 'watch';
  $('pass').disabled = !(canAct && app.game.myTurn() && app.game.settings.rules !== 'atari');
  $('resign').disabled = !canAct;
  $('save-sgf').disabled = !(app.game || app.review);
}

// ---- clocks: the server's figures, counted down here between events ----

let clockTimer = null;

function fmtClock(ms, periods, byoMs) {
  const t = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(t / 60), sec = t % 60;
  const main = `${m}:${String(sec).padStart(2, '0')}`;
  return periods > 0 && byoMs > 0 ? `${main} +${periods}×${Math.round(byoMs / 1000)}s` : main;
}

function renderClocks() {
  const g = app.game;
  const st = g && g.state;
  const box = $('clocks');
  if (!st || !st.clock || !g.settings.clock) { box.hidden = true; clearInterval(clockTimer); clockTimer = null; return; }
  box.hidden = false;
  const byo = g.settings.clock.byo_ms;
  const received = g.stateReceived || performance.now();
  const draw = () => {
    for (const c of ['B', 'W']) {
      const side = st.clock[c];
      const el = $(`clock-${c}`);
      const running = st.clock.running === c;
      let text;
      if (running) {
        const left = st.clock.left_ms - (performance.now() - received);
        // In byo-yomi: the period running now and the periods after it.
        if (left <= side.periods * byo) {
          const periods = Math.max(1, Math.ceil(left / byo));
          const inPeriod = left - (periods - 1) * byo;
          text = `${colorName(c)} ${fmtClock(inPeriod, 0, 0)} (${periods}×${Math.round(byo / 1000)}s)`;
        } else {
          text = `${colorName(c)} ${fmtClock(left - side.periods * byo, side.periods, byo)}`;
        }
        el.className = left < 10000 ? 'clock running low' : 'clock running';
      } else {
        text = `${colorName(c)} ${fmtClock(side.main_ms, side.periods, byo)}`;
        el.className = 'clock';
      }
      el.textContent = text;
    }
  };
  draw();
  if (!clockTimer) clockTimer = setInterval(() => renderClocks(), 250);
}

function renderNav() {
  const n = lineLength();
  const slider = $('nav-slider');
  slider.max = String(n);
  slider.value = String(Math.min(app.step, n));
  $('nav-label').textContent = `move ${Math.min(app.step, n)} / ${n}`;
  $('nav').hidden = !(app.game || app.review);
}

// ---- moving through a line ----

async function showStep(step) {
  const n = lineLength();
  app.step = Math.max(0, Math.min(step, n));
  if (app.game && atEnd()) { render(); return; }
  const key = positionKey(app.step);
  if (!app.positions.has(key)) {
    const line = app.game
      ? { size: app.game.settings.size, moves: app.game.moves(), at: app.step }
      : { size: app.review.size, setup: app.review.setup, moves: app.review.moves, at: app.step,
          handicap: app.review.info.handicap, ru: app.review.info.rules };
    try {
      const msg = await app.net.request({ t: 'position', ...line });
      app.positions.set(key, msg.state);
      if (msg.error) notice(msg.error);
    } catch (err) {
      notice(err.message, 'error', err.code || '');
      return;
    }
  }
  render();
}

// ---- games ----

function gameChanged(reason) {
  const g = app.game;
  if (!g || !g.settings) return;
  if (reason === 'joined' || atEnd() || app.step >= g.moves().length - 1) app.step = g.moves().length;
  const s = g.settings;
  const seatText = { both: 'both colours in this window', black: 'you play Black', white: 'you play White',
                     watch: 'watching' }[g.seat] || '';
  const rules = s.rules === 'atari' ? 'Atari-go' : `Go, komi ${s.komi}`;
  const against = s.engine ? ` against the engine (${s.engine === 'B' ? 'Black' : 'White'})` : '';
  $('title').textContent = `${s.size}×${s.size} ${rules} · ${seatText}${against}`;
  render();
}

function openGame(id, token) {
  if (app.game) app.game.close();
  app.review = null;
  app.positions.clear();
  app.step = 0;
  clearNotice();
  app.game = new LiveGame(app.net, { id, token }, gameChanged);
  history.replaceState(null, '', `#g=${id}&t=${token}`);
}

function gameLink(id, token) {
  return `${location.origin}/#g=${id}&t=${token}`;
}

function showLinks(id, tokens) {
  const box = $('links');
  box.textContent = '';
  for (const [seat, label] of [['black', 'Black'], ['white', 'White'], ['both', 'Players'], ['watch', 'Watch']]) {
    if (!tokens[seat]) continue;
    const row = document.createElement('div');
    row.className = 'link-row';
    const name = document.createElement('span');
    name.textContent = label;
    const input = document.createElement('input');
    input.readOnly = true;
    input.value = gameLink(id, tokens[seat]);
    input.id = `link-${seat}`;
    input.addEventListener('focus', () => input.select());
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.textContent = 'Copy';
    copy.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(input.value); notice('Link copied.', 'info'); }
      catch { input.select(); }
    });
    row.append(name, input, copy);
    box.appendChild(row);
  }
  $('links-panel').hidden = false;
}

async function startGame(ev) {
  ev.preventDefault();
  const mode = $('ng-mode').value;
  const msg = { t: 'create', mode, size: Number($('ng-size').value), rules: $('ng-rules').value,
                komi: Number($('ng-komi').value) };
  const clock = $('ng-clock').value;
  if (clock) {
    const [main, byo, periods] = clock.split(':').map(Number);
    msg.clock = { main, byo, periods };
  }
  if (mode === 'engine') {
    msg.engine_color = $('ng-engine-color').value;
    const [kind, v] = $('ng-engine-strength').value.split(':');
    if (kind === 'p') msg.playouts = Number(v); else msg.seconds = Number(v);
  }
  try {
    const created = await app.net.request(msg);
    const tokens = created.tokens;
    let mine = tokens.both;
    if (mode === 'network') {
      const seat = $('ng-my-seat').value;
      mine = tokens[seat];
      showLinks(created.game, tokens);
    } else if (mode === 'engine') {
      mine = tokens.black || tokens.white;
      $('links-panel').hidden = true;
    } else {
      $('links-panel').hidden = true;
    }
    openGame(created.game, mine);
  } catch (err) {
    notice(`Cannot start the game: ${err.message}`, 'error', err.code || '');
  }
}

function clickPoint(x, y, name) {
  for (const fn of clickHooks) if (fn(x, y, name)) return;
  if (!app.game || !app.game.state) {
    if (app.review) notice('This is a loaded game: start a new game to play.', 'info');
    return;
  }
  if (!atEnd()) { showStep(lineLength()); notice('Back to the current position: play from here.', 'info'); return; }
  if (app.game.state.over) { notice('The game is over.', 'error', 'game_over'); return; }
  if (app.game.seat === 'watch') { notice('You are watching this game: your link cannot play.', 'error', 'watcher'); return; }
  if (!app.game.myTurn()) {
    notice(`Not your turn: ${colorName(app.game.state.to_move)} is to play.`, 'error', 'not_your_turn');
    return;
  }
  app.game.play(name);
}

const clickHooks = [];
// fn(x, y, name) returns true when it took the click (the explorer's inspect mode).
export function onBoardClick(fn) { clickHooks.push(fn); }

// ---- SGF files ----

async function loadFile(file) {
  const max = app.welcome ? app.welcome.limits.max_message_bytes - 1024 : 1 << 20;
  if (file.size > max) { notice(`This file is too large (${file.size} bytes; at most ${max}).`); return; }
  const text = await file.text();
  try {
    const msg = await app.net.request({ t: 'load_sgf', text });
    if (app.game) { app.game.close(); app.game = null; }
    history.replaceState(null, '', location.pathname);
    $('links-panel').hidden = true;
    app.positions.clear();
    app.review = { size: msg.size, setup: msg.setup, moves: msg.moves, info: msg.info, playable: msg.playable,
                   text, name: file.name };
    const i = msg.info;
    const who = `${i.black || 'Black'}${i.black_rank ? ' ' + i.black_rank : ''} vs ${i.white || 'White'}${i.white_rank ? ' ' + i.white_rank : ''}`;
    $('title').textContent = `${file.name}: ${who}`;
    const info = $('sgf-info');
    info.textContent = `${who} · ${msg.size}×${msg.size} · komi ${i.komi} · ${msg.moves.length} moves` +
                       (i.result ? ` · ${i.result}` : '') + (i.date ? ` · ${i.date}` : '');
    if (msg.error) notice(`This record stops at move ${msg.playable}: ${msg.error}`);
    await showStep(0);
  } catch (err) {
    notice(`Cannot open ${file.name}: ${err.message}`, 'error', err.code || '');
  }
}

// Opens a stored game sent by the explorer (an SGF-like record) at a move.
export async function openRecord(record, at, name) {
  if (app.game) { app.game.close(); app.game = null; }
  history.replaceState(null, '', location.pathname);
  app.positions.clear();
  app.review = { size: record.size, setup: record.setup, moves: record.moves, info: record.info,
                 playable: record.playable, text: record.sgf, name };
  const i = record.info;
  $('title').textContent = `${i.black || 'Black'} vs ${i.white || 'White'}${i.date ? ', ' + i.date : ''}${i.result ? ', ' + i.result : ''}`;
  await showStep(at);
}

async function saveSgf() {
  if (app.game) {
    try {
      const msg = await app.net.request({ t: 'sgf', game: app.game.id, token: app.game.token });
      download(msg.name, msg.text);
    } catch (err) {
      notice(err.message, 'error', err.code || '');
    }
  } else if (app.review) {
    download(app.review.name || 'game.sgf', app.review.text);
  }
}

// ---- start ----

function setConnection(kind, text) {
  const c = $('connection');
  c.className = `conn conn-${kind}`;
  c.textContent = text;
}

function newGameForm() {
  const sync = () => {
    const mode = $('ng-mode').value;
    $('ng-network').hidden = mode !== 'network';
    $('ng-engine').hidden = mode !== 'engine';
    $('ng-komi-label').hidden = $('ng-rules').value === 'atari';
  };
  for (const id of ['ng-mode', 'ng-rules']) $(id).addEventListener('change', sync);
  $('ng-rules').addEventListener('change', () => {
    if ($('ng-rules').value === 'atari' && Number($('ng-size').value) > 9) $('ng-size').value = '7';
  });
  sync();
  $('new-game-form').addEventListener('submit', startGame);
}

function init() {
  app.board = new BoardView($('board'), { onClick: clickPoint });
  app.net = new Net(setConnection);
  app.net.on('welcome', (msg) => {
    app.welcome = msg;
    for (const fn of welcomeHooks) fn(msg);
  });
  newGameForm();
  $('pass').addEventListener('click', () => app.game && app.game.play('pass'));
  $('resign').addEventListener('click', () => {
    if (app.game && confirm('Resign this game?')) app.game.play('resign');
  });
  $('save-sgf').addEventListener('click', saveSgf);
  $('sgf-file').addEventListener('change', (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); });
  $('nav-first').addEventListener('click', () => showStep(0));
  $('nav-prev').addEventListener('click', () => showStep(app.step - 1));
  $('nav-next').addEventListener('click', () => showStep(app.step + 1));
  $('nav-last').addEventListener('click', () => showStep(lineLength()));
  $('nav-slider').addEventListener('input', (e) => showStep(Number(e.target.value)));
  document.addEventListener('keydown', (e) => {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
    if (e.key === 'ArrowLeft') showStep(app.step - 1);
    else if (e.key === 'ArrowRight') showStep(app.step + 1);
    else if (e.key === 'Home') showStep(0);
    else if (e.key === 'End') showStep(lineLength());
    else if ((e.key === 'p' || e.key === 'P') && app.game && app.game.myTurn()) app.game.play('pass');
  });
  const hash = new URLSearchParams(location.hash.slice(1));
  if (/^[0-9a-f]{16}$/.test(hash.get('g') || '') && /^[0-9a-f]{32}$/.test(hash.get('t') || '')) {
    openGame(hash.get('g'), hash.get('t'));
  } else {
    app.board.setSize(9);
    app.board.setPosition('.'.repeat(81), null);
    $('status').textContent = 'Start a new game, or open an SGF file.';
    renderNav();
  }
  for (const fn of initHooks) fn();
}

const welcomeHooks = [];
const initHooks = [];
export function onWelcome(fn) { welcomeHooks.push(fn); if (app.welcome) fn(app.welcome); }
export function onInit(fn) { initHooks.push(fn); }

document.addEventListener('DOMContentLoaded', init);
