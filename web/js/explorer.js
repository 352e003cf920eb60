// The explorer panel: for the position on the board, the priors of every
// legal move as a heat map, the counts of the pattern around a clicked
// point (with its diamond drawn), and the stored positions equal or nearest
// to it with what was played next (marks on the board, games listed: a
// click opens one at that move).  Every number comes from the server, the
// same as `sgfpat eval/query/similar --json` give.
import { parsePoint } from './coords.js';
import { currentLine, getApp, onBoardClick, onPositionChange, onWelcome, openRecord } from './main.js';
import { $, cell, fmtInt, fmtPercent, notice } from './ui.js';

const ex = { caps: null, heatSeq: 0, similarSeq: 0, lastKey: '' };

function lineRequest(kind, extra = {}) {
  const l = currentLine();
  if (!l) return null;
  const msg = { t: kind, size: l.size, setup: l.setup, moves: l.moves, at: l.at, ...extra };
  if (l.handicap) msg.handicap = l.handicap;
  if (l.ru) msg.ru = l.ru;
  return msg;
}

function lineKey() {
  const l = currentLine();
  return l ? `${l.size}:${l.at}:${JSON.stringify(l.moves.slice(0, l.at))}:${JSON.stringify(l.setup)}` : '';
}

// ---- heat map ----

async function refreshHeat() {
  const board = getApp().board;
  const info = $('ex-heat-info');
  if (!$('ex-heat').checked) { board.setHeat(null); info.textContent = ''; return; }
  const msg = lineRequest('heatmap');
  if (!msg) return;
  const seq = ++ex.heatSeq;
  try {
    const r = await getApp().net.request(msg);
    if (seq !== ex.heatSeq) return;  // the board moved on meanwhile
    const size = r.size;
    const max = r.moves.length ? r.moves[0].prob : 1;
    const cells = r.moves.map((m, i) => {
      const p = parsePoint(m.move, size);
      return { x: p.x, y: p.y, name: m.move, value: max > 0 ? m.prob / max : 0, raw: m.prob,
               label: i < 5 ? fmtPercent(m.prob, m.prob < 0.1 ? 1 : 0) : '' };
    });
    board.setHeat(cells);
    info.textContent = '';
    const head = document.createElement('div');
    head.textContent = `${r.legal_moves} legal moves, ${r.estimator} estimator (${r.ms.toFixed(1)} ms)`;
    const table = document.createElement('table');
    table.id = 'ex-heat-table';
    const hr = document.createElement('tr');
    for (const h of ['move', 'prob', 'level', 'played', 'seen']) cell(hr, h, 'th');
    table.appendChild(hr);
    for (const m of r.moves.slice(0, 10)) {
      const tr = document.createElement('tr');
      tr.dataset.move = m.move;
      tr.dataset.prob = String(m.prob);
      cell(tr, m.move);
      cell(tr, fmtPercent(m.prob, 2));
      cell(tr, String(m.level));
      cell(tr, fmtInt(m.played));
      cell(tr, fmtInt(m.seen));
      table.appendChild(tr);
    }
    info.append(head, table);
  } catch (err) {
    if (seq === ex.heatSeq) { info.textContent = err.message; board.setHeat(null); }
  }
}

// ---- the pattern of a point ----

async function showPattern(x, y, name) {
  const box = $('ex-pattern');
  const msg = lineRequest('pattern', { point: name });
  if (!msg) return;
  box.textContent = `Looking up ${name}…`;
  try {
    const r = await getApp().net.request(msg);
    const size = currentLine().size;
    box.textContent = '';
    const head = document.createElement('div');
    head.id = 'ex-pattern-head';
    head.dataset.point = r.point;
    head.dataset.largest = String(r.largest_level);
    head.textContent = `Pattern around ${r.point} for ${r.to_move === 'B' ? 'Black' : 'White'} to move` +
      (r.legal ? '' : ` (not a legal move here: ${r.illegal})`) +
      (r.levels.length ? `: largest level known ${r.largest_level}` : ': never played in the database') +
      ` (${r.ms.toFixed(1)} ms)`;
    box.appendChild(head);
    if (r.levels.length) {
      const table = document.createElement('table');
      table.id = 'ex-pattern-table';
      const hr = document.createElement('tr');
      for (const h of ['level', 'points', 'played', 'seen', 'play rate', 'wins', 'win rate']) cell(hr, h, 'th');
      table.appendChild(hr);
      for (const l of r.levels) {
        const tr = document.createElement('tr');
        tr.className = 'level-row';
        Object.assign(tr.dataset, { level: l.level, points: l.points, played: l.played, seen: l.seen, wins: l.wins,
                                    playRate: l.play_rate, winRate: l.win_rate, key: l.key,
                                    playRateLow: l.play_rate_ci95[0], playRateHigh: l.play_rate_ci95[1] });
        cell(tr, String(l.level));
        cell(tr, String(l.points));
        cell(tr, fmtInt(l.played));
        cell(tr, fmtInt(l.seen));
        // The rate, and under it its 95% interval (Wilson), small: one
        // column that stays narrow enough for the panel.
        const rate = cell(tr, fmtPercent(l.play_rate, 2));
        const ci = document.createElement('div');
        ci.className = 'ci';
        ci.textContent = `${fmtPercent(l.play_rate_ci95[0], 1)}–${fmtPercent(l.play_rate_ci95[1], 1)}`;
        rate.appendChild(ci);
        cell(tr, fmtInt(l.wins));
        cell(tr, fmtPercent(l.win_rate, 1));
        table.appendChild(tr);
      }
      box.appendChild(table);
    }
    const pts = r.diamond.map((n) => parsePoint(n, size));
    getApp().board.setDiamond(pts.length ? pts : null, { x, y });
  } catch (err) {
    box.textContent = err.message;
    getApp().board.setDiamond(null);
  }
}

// ---- stored positions ----

async function refreshSimilar(exact = true) {
  const board = getApp().board;
  const box = $('ex-similar-box');
  if (!$('ex-similar').checked) { board.setMarks(null); box.textContent = ''; return; }
  const msg = lineRequest('similar', exact ? { exact: true } : { exact: false, k: 20 });
  if (!msg) return;
  const seq = ++ex.similarSeq;
  box.textContent = exact ? 'Searching…' : 'Scanning every stored game…';
  try {
    const r = await getApp().net.request(msg, 120000);
    if (seq !== ex.similarSeq) return;
    const size = currentLine().size;
    const marks = [];
    for (const c of r.continuations) {
      const p = parsePoint(c.move, size);
      if (!p) continue;
      marks.push({ x: p.x, y: p.y, name: c.move, text: String(c.count),
                   color: `hsl(${Math.round(120 * c.win_rate)}, 65%, 35%)` });
    }
    board.setMarks(marks);
    box.textContent = '';
    const head = document.createElement('div');
    head.id = 'ex-similar-head';
    head.dataset.total = String(r.hits_total);
    head.textContent = `${r.search === 'exact' ? 'Equal positions (8 symmetries, colours exchanged)' : 'Nearest positions'}: ` +
                       `${fmtInt(r.hits_total)} (${r.ms.toFixed(1)} ms). Marks: times played next, coloured by win rate.`;
    box.appendChild(head);
    if (r.continuations.length) {
      const t = document.createElement('table');
      t.id = 'ex-cont-table';
      const hr = document.createElement('tr');
      for (const h of ['next', 'count', 'win rate']) cell(hr, h, 'th');
      t.appendChild(hr);
      for (const c of r.continuations.slice(0, 12)) {
        const tr = document.createElement('tr');
        Object.assign(tr.dataset, { move: c.move, count: c.count, wins: c.wins });
        cell(tr, c.move);
        cell(tr, fmtInt(c.count));
        cell(tr, fmtPercent(c.win_rate, 1));
        t.appendChild(tr);
      }
      box.appendChild(t);
    }
    if (r.hits.length) {
      const t = document.createElement('table');
      t.id = 'ex-hits-table';
      const hr = document.createElement('tr');
      for (const h of ['game', 'move', 'next', 'result']) cell(hr, h, 'th');
      t.appendChild(hr);
      for (const h of r.hits) {
        const tr = document.createElement('tr');
        tr.className = 'clickable';
        tr.dataset.game = h.game;
        tr.title = 'Open this game at this move';
        const who = h.black !== undefined
          ? `${h.black}${h.black_rank ? ' ' + h.black_rank : ''} – ${h.white}${h.white_rank ? ' ' + h.white_rank : ''}${h.date ? ', ' + h.date : ''}`
          : '(no longer stored)';
        cell(tr, who);
        cell(tr, String(h.move_number));
        cell(tr, h.next);
        cell(tr, h.result || '');
        tr.addEventListener('click', () => openStored(h.game, h.move_number - 1));
        t.appendChild(tr);
      }
      box.appendChild(t);
    }
    if (exact) {
      const more = document.createElement('button');
      more.type = 'button';
      more.id = 'ex-nearest';
      more.textContent = 'Nearest positions (scans every game)';
      more.addEventListener('click', () => refreshSimilar(false));
      box.appendChild(more);
    }
  } catch (err) {
    if (seq === ex.similarSeq) { box.textContent = err.message; board.setMarks(null); }
  }
}

async function openStored(game, at) {
  try {
    const r = await getApp().net.request({ t: 'stored_game', game });
    $('ex-similar').checked = false;
    await openRecord(r, at, `${game}.sgf`);
  } catch (err) {
    notice(err.message, 'error', err.code || '');
  }
}

// ---- wiring ----

onWelcome((w) => {
  const caps = w.explorer;
  ex.caps = caps;
  $('explorer-panel').hidden = !caps;
  if (!caps) return;
  $('explorer-panel').open = true;
  $('ex-heat').disabled = !caps.priors;
  $('ex-inspect').disabled = !caps.db;
  $('ex-similar').disabled = !caps.db || !caps.position_index;
  if (!caps.priors) $('ex-heat').parentElement.title = 'Start the server with --priors FILE';
  if (!caps.db) $('ex-inspect').parentElement.title = 'Start the server with --db DIR';
});

onPositionChange(() => {
  const key = lineKey();
  if (key === ex.lastKey) return;
  ex.lastKey = key;
  getApp().board.setDiamond(null);
  $('ex-pattern').textContent = '';
  if (ex.caps && $('ex-heat').checked) refreshHeat();
  if (ex.caps && $('ex-similar').checked) refreshSimilar();
});

onBoardClick((x, y, name) => {
  if (!ex.caps || !$('ex-inspect').checked) return false;
  const l = currentLine();
  if (!l || !l.state) return false;
  const size = l.size;
  if (l.state.board[y * size + x] !== '.') { notice('Click an empty point: patterns are those of moves.', 'info'); return true; }
  showPattern(x, y, name);
  return true;
});

document.addEventListener('DOMContentLoaded', () => {
  $('ex-heat').addEventListener('change', refreshHeat);
  $('ex-similar').addEventListener('change', () => refreshSimilar());
  $('ex-inspect').addEventListener('change', () => {
    if (!$('ex-inspect').checked) { getApp().board.setDiamond(null); $('ex-pattern').textContent = ''; }
  });
});
