// Small page helpers: the notice above the board, element lookup, downloads.
export const $ = (id) => document.getElementById(id);

let noticeTimer = null;

// Shows a message above the board (kind 'error' or 'info'); refused moves
// say why here.  It stays a few seconds, or until the next one.
export function notice(text, kind = 'error', code = '') {
  const box = $('notice');
  box.textContent = text;
  box.className = kind === 'error' ? 'notice' : 'notice info-notice';
  box.dataset.code = code;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, kind === 'error' ? 8000 : 5000);
}

export function clearNotice() {
  clearTimeout(noticeTimer);
  $('notice').hidden = true;
}

export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-go-sgf' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function colorName(c) { return c === 'B' ? 'Black' : c === 'W' ? 'White' : ''; }

export function fmtPercent(v, digits = 1) {
  return (100 * v).toFixed(digits) + '%';
}

export function fmtInt(v) { return Number(v).toLocaleString('en-US'); }

export function cell(tr, text, tag = 'td') {
  const c = document.createElement(tag);
  c.textContent = text;
  tr.appendChild(c);
  return c;
}
