// The board, drawn in SVG: wood, grid, star points, coordinates, stones
// with a light and a shadow, the last move's mark, a shadow stone where
// the pointer is, and overlays (territory, heat map, labels, a diamond).
// It only draws what it is given; clicks go to the caller.
import { columnLetter, pointName, starPoints } from './coords.js';

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

export class BoardView {
  // onClick(x, y, name) and onHover(x, y | null) are called with board points.
  constructor(container, { onClick, onHover } = {}) {
    this.container = container;
    this.onClick = onClick || (() => {});
    this.onHover = onHover || (() => {});
    this.size = 0;
    this.ghostColor = null;   // 'B' or 'W': the shadow stone's colour, null: none
    this.stones = '';
  }

  // Rebuilds the drawing for a size x size board.
  setSize(size) {
    if (size === this.size && this.svg) return;
    this.size = size;
    this.container.textContent = '';
    const n = size;
    const svg = el('svg', { viewBox: `-1 -1 ${n + 1} ${n + 1}`, role: 'img',
                            'aria-label': `${n}×${n} Go board`, 'data-size': n });
    this.svg = svg;
    const defs = el('defs', {}, svg);
    const wood = el('linearGradient', { id: 'wood', x1: 0, y1: 0, x2: 1, y2: 1 }, defs);
    el('stop', { offset: '0%', 'stop-color': '#e0b865' }, wood);
    el('stop', { offset: '100%', 'stop-color': '#d8ae57' }, wood);
    const black = el('radialGradient', { id: 'stone-b', cx: '.38', cy: '.35', r: '.7', fx: '.32', fy: '.3' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#6b6b6b' }, black);
    el('stop', { offset: '45%', 'stop-color': '#262626' }, black);
    el('stop', { offset: '100%', 'stop-color': '#050505' }, black);
    const white = el('radialGradient', { id: 'stone-w', cx: '.38', cy: '.35', r: '.75', fx: '.32', fy: '.3' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ffffff' }, white);
    el('stop', { offset: '70%', 'stop-color': '#ececec' }, white);
    el('stop', { offset: '100%', 'stop-color': '#c4c4c4' }, white);

    el('rect', { x: -1, y: -1, width: n + 1, height: n + 1, fill: 'url(#wood)', class: 'wood' }, svg);
    let d = '';
    for (let i = 0; i < n; i++) d += `M0 ${i}H${n - 1}M${i} 0V${n - 1}`;
    el('path', { d, stroke: '#3b2a14', 'stroke-width': 0.035, fill: 'none', 'stroke-linecap': 'square' }, svg);
    el('rect', { x: 0, y: 0, width: n - 1, height: n - 1, stroke: '#3b2a14', 'stroke-width': 0.06, fill: 'none' }, svg);
    for (const [x, y] of starPoints(n)) el('circle', { cx: x, cy: y, r: 0.1, fill: '#3b2a14' }, svg);
    const coords = el('g', { class: 'coords' }, svg);
    for (let i = 0; i < n; i++) {
      el('text', { x: i, y: -0.62, class: 'coord' }, coords).textContent = columnLetter(i);
      el('text', { x: i, y: n - 0.38, class: 'coord' }, coords).textContent = columnLetter(i);
      el('text', { x: -0.62, y: i, class: 'coord' }, coords).textContent = String(n - i);
      el('text', { x: n - 0.38, y: i, class: 'coord' }, coords).textContent = String(n - i);
    }
    this.territoryLayer = el('g', { class: 'territory' }, svg);
    this.heatLayer = el('g', { class: 'heat' }, svg);
    this.diamondLayer = el('g', { class: 'diamond' }, svg);
    this.stoneLayer = el('g', { class: 'stones' }, svg);
    this.markLayer = el('g', { class: 'marks' }, svg);
    this.overlayLayer = el('g', { class: 'overlays' }, svg);
    this.ghost = el('circle', { r: 0.47, class: 'ghost', visibility: 'hidden' }, svg);
    const hits = el('g', { class: 'hits' }, svg);
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const name = pointName(x, y, n);
        const r = el('rect', { x: x - 0.5, y: y - 0.5, width: 1, height: 1, class: 'hit', 'data-point': name }, hits);
        r.addEventListener('click', () => this.onClick(x, y, name));
        r.addEventListener('mouseenter', () => { this.hover = { x, y }; this.drawGhost(); this.onHover(x, y); });
      }
    }
    svg.addEventListener('mouseleave', () => { this.hover = null; this.drawGhost(); this.onHover(null); });
    this.container.appendChild(svg);
    this.stones = '';
  }

  // board: the stones as a string of size*size ('.', 'X', 'O'), top row
  // first; last: {x, y} of the last move or null.
  setPosition(board, last) {
    this.stones = board;
    const n = this.size;
    const layer = this.stoneLayer;
    layer.textContent = '';
    for (let i = 0; i < board.length; i++) {
      const c = board[i];
      if (c !== 'X' && c !== 'O') continue;
      const x = i % n, y = Math.floor(i / n);
      el('circle', { cx: x + 0.05, cy: y + 0.07, r: 0.47, fill: 'rgba(40,25,5,.35)' }, layer);
      el('circle', { cx: x, cy: y, r: 0.47, fill: c === 'X' ? 'url(#stone-b)' : 'url(#stone-w)',
                     stroke: c === 'X' ? '#000' : '#8c8c8c', 'stroke-width': 0.02,
                     class: c === 'X' ? 'stone stone-b' : 'stone stone-w', 'data-point': pointName(x, y, n) }, layer);
    }
    this.markLayer.textContent = '';
    this.lastMark = null;
    if (last) {
      const c = board[last.y * n + last.x];
      this.lastMark = el('circle', { cx: last.x, cy: last.y, r: 0.2, fill: 'none', class: 'last-move',
                                     stroke: c === 'X' ? '#f5f5f5' : '#111', 'stroke-width': 0.07 }, this.markLayer);
    }
    this.drawGhost();
  }

  drawGhost() {
    const h = this.hover;
    const free = h && this.stones && this.stones[h.y * this.size + h.x] === '.';
    if (!h || !this.ghostColor || !free) {
      this.ghost.setAttribute('visibility', 'hidden');
      return;
    }
    this.ghost.setAttribute('cx', h.x);
    this.ghost.setAttribute('cy', h.y);
    this.ghost.setAttribute('fill', this.ghostColor === 'B' ? '#111' : '#f4f4f4');
    this.ghost.setAttribute('visibility', 'visible');
  }

  setGhost(color) { this.ghostColor = color; this.drawGhost(); }

  // owners: size*size chars ('X' Black's, 'O' White's, '.' neither) or null.
  setTerritory(owners) {
    const layer = this.territoryLayer;
    layer.textContent = '';
    if (!owners) return;
    const n = this.size;
    for (let i = 0; i < owners.length; i++) {
      const o = owners[i];
      if (o === '.' || this.stones[i] !== '.') continue;
      const x = i % n, y = Math.floor(i / n);
      el('rect', { x: x - 0.17, y: y - 0.17, width: 0.34, height: 0.34, class: 'territory-mark',
                   'data-owner': o, fill: o === 'X' ? '#111' : '#f4f4f4', stroke: o === 'X' ? 'none' : '#777',
                   'stroke-width': 0.02 }, layer);
    }
  }

  // cells: [{x, y, value (0..1), label}] drawn as tinted squares.
  setHeat(cells) {
    const layer = this.heatLayer;
    layer.textContent = '';
    if (!cells) return;
    for (const c of cells) {
      const a = Math.max(0.06, Math.min(0.85, Math.sqrt(c.value)));
      el('rect', { x: c.x - 0.46, y: c.y - 0.46, width: 0.92, height: 0.92, rx: 0.12,
                   fill: `rgba(214, 40, 40, ${a.toFixed(3)})`, class: 'heat-cell',
                   'data-point': c.name, 'data-value': c.raw !== undefined ? c.raw : c.value }, layer);
      if (c.label) el('text', { x: c.x, y: c.y, class: 'heat-text' }, layer).textContent = c.label;
    }
  }

  // marks: [{x, y, text, color}] drawn as labelled discs over the board.
  setMarks(marks) {
    const layer = this.overlayLayer;
    layer.textContent = '';
    if (!marks) return;
    for (const m of marks) {
      const g = el('g', { class: 'overlay', 'data-point': m.name || '' }, layer);
      el('circle', { cx: m.x, cy: m.y, r: 0.42, fill: m.color || 'rgba(30,90,180,.85)', stroke: '#fff',
                     'stroke-width': 0.03 }, g);
      el('text', { x: m.x, y: m.y, class: 'mark-text', fill: '#fff' }, g).textContent = m.text;
    }
  }

  // points: [{x, y}] of a diamond (a pattern's area), outlined; null clears.
  setDiamond(points, centre) {
    const layer = this.diamondLayer;
    layer.textContent = '';
    if (!points) return;
    for (const p of points)
      el('rect', { x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1, fill: 'rgba(40, 110, 220, .18)',
                   class: 'diamond-cell' }, layer);
    if (centre) el('circle', { cx: centre.x, cy: centre.y, r: 0.16, fill: 'rgba(40,110,220,.9)' }, layer);
  }
}
