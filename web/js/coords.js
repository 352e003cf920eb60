// Point names: GTP style ("D4": column letter without I, row counted from
// the bottom), as the server speaks them, and board-string indices
// (row 0 at the top).

const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

export function pointName(x, y, size) {
  return LETTERS[x] + String(size - y);
}

export function parsePoint(name, size) {
  if (typeof name !== 'string' || name === 'pass') return null;
  const x = LETTERS.indexOf(name[0].toUpperCase());
  const row = Number(name.slice(1));
  if (x < 0 || x >= size || !Number.isInteger(row) || row < 1 || row > size) return null;
  return { x, y: size - row };
}

export function columnLetter(x) { return LETTERS[x]; }

export function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 13 ? 3 : 2;
  const far = size - 1 - edge;
  const mid = (size - 1) / 2;
  const pts = [[edge, edge], [far, edge], [edge, far], [far, far]];
  if (size % 2 === 1) {
    pts.push([mid, mid]);
    if (size >= 15) pts.push([mid, edge], [mid, far], [edge, mid], [far, mid]);
  }
  return pts;
}
