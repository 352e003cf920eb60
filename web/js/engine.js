// The engine panel: the tree search's candidates for the position on the
// board (visits and win rates, drawn over the board), and in atari-go on
// small boards the solver's verdict on every move.
import { parsePoint } from './coords.js';
import { currentLine, getApp, onPositionChange, onWelcome } from './main.js';
import { $, cell, fmtInt, fmtPercent } from './ui.js';

let seq = 0;

function request(kind, extra) {
  const l = currentLine();
  if (!l) return null;
  const msg = { t: kind, size: l.size, setup: l.setup, moves: l.moves, at: l.at, ...extra };
  if (l.komi !== undefined) msg.komi = l.komi;
  if (l.handicap) msg.handicap = l.handicap;
  if (l.ru) msg.ru = l.ru;
  return msg;
}

async function analyze() {
  const msg = request('analyze', { playouts: Number($('en-playouts').value) });
  if (!msg) return;
  const mine = ++seq;
  const box = $('en-info');
  box.textContent = 'Thinking…';
  $('en-analyze').disabled = true;
  try {
    const r = await getApp().net.request(msg, 120000);
    if (mine !== seq) return;
    const size = currentLine().size;
    const marks = [];
    r.candidates.slice(0, 8).forEach((c, i) => {
      const p = parsePoint(c.move, size);
      if (p) marks.push({ x: p.x, y: p.y, name: c.move, text: i === 0 ? '★' : String(i + 1),
                          color: `hsl(${Math.round(120 * c.win_rate)}, 60%, ${i === 0 ? 30 : 40}%)` });
    });
    getApp().board.setMarks(marks);
    box.textContent = '';
    const head = document.createElement('div');
    head.id = 'en-head';
    head.dataset.best = r.best;
    head.textContent = `Best: ${r.best}, ${r.to_move === 'B' ? 'Black' : 'White'} wins ${fmtPercent(r.win_rate)} ` +
                       `(${fmtInt(r.playouts)} playouts, ${r.seconds.toFixed(2)} s)`;
    const t = document.createElement('table');
    t.id = 'en-table';
    const hr = document.createElement('tr');
    for (const h of ['#', 'move', 'visits', 'win rate', 'prior']) cell(hr, h, 'th');
    t.appendChild(hr);
    r.candidates.forEach((c, i) => {
      const tr = document.createElement('tr');
      Object.assign(tr.dataset, { move: c.move, visits: c.visits });
      cell(tr, String(i + 1));
      cell(tr, c.move);
      cell(tr, fmtInt(c.visits));
      cell(tr, fmtPercent(c.win_rate));
      cell(tr, fmtPercent(c.prior));
      t.appendChild(tr);
    });
    box.append(head, t);
  } catch (err) {
    if (mine === seq) box.textContent = err.message;
  } finally {
    $('en-analyze').disabled = false;
  }
}

async function solve() {
  const msg = request('solve', {});
  if (!msg) return;
  const mine = ++seq;
  const box = $('en-info');
  box.textContent = 'Solving…';
  $('en-solve').disabled = true;
  try {
    const r = await getApp().net.request(msg, 120000);
    if (mine !== seq) return;
    const size = currentLine().size;
    const marks = [];
    for (const m of r.moves) {
      const p = parsePoint(m.move, size);
      if (!p) continue;
      const [text, color] = m.verdict === 'win' ? ['W', '#1e7b34'] : m.verdict === 'loss' ? ['L', '#b3261e'] : ['?', '#777'];
      marks.push({ x: p.x, y: p.y, name: m.move, text, color });
    }
    getApp().board.setMarks(marks);
    const wins = r.moves.filter((m) => m.verdict === 'win').length;
    const losses = r.moves.filter((m) => m.verdict === 'loss').length;
    box.textContent = '';
    const head = document.createElement('div');
    head.id = 'en-solve-head';
    head.dataset.winning = r.winning || '';
    head.textContent = (r.winning ? `Perfect play: ${r.winning} wins. ` : 'No winning move proved. ') +
      `${wins} moves win, ${losses} lose, ${r.moves.length - wins - losses} undecided ` +
      `(${fmtInt(r.nodes)} nodes, ${r.seconds.toFixed(2)} s). Marks: W win, L loss, ? undecided.`;
    box.appendChild(head);
  } catch (err) {
    if (mine === seq) box.textContent = err.message;
  } finally {
    $('en-solve').disabled = false;
  }
}

onWelcome(() => { $('engine-panel').hidden = false; });

onPositionChange(() => {
  const l = currentLine();
  $('en-solve').hidden = !(l && l.rules === 'atari' && l.size <= 7);
  // Old candidates do not belong to a new position.
  if (seq && l) {
    const key = `${l.size}:${l.at}:${l.moves.length}`;
    if (key !== engineKey) { engineKey = key; getApp().board.setMarks(null); $('en-info').textContent = ''; seq++; }
  }
});
let engineKey = '';

document.addEventListener('DOMContentLoaded', () => {
  $('en-analyze').addEventListener('click', analyze);
  $('en-solve').addEventListener('click', solve);
});
