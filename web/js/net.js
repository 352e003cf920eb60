// The WebSocket to the server: JSON messages, answers matched to requests
// by "id", and a reconnection with growing pauses when the connection is
// lost (the page then asks again for what it follows: see game.js).
export class Net {
  constructor(onStatus) {
    this.onStatus = onStatus || (() => {});
    this.handlers = new Map();      // kind -> [fn]
    this.pending = new Map();       // id -> {resolve, reject, timer}
    this.nextId = 1;
    this.openHooks = [];
    this.delay = 250;
    this.ws = null;
    this.connect();
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws`;
  }

  connect() {
    this.onStatus('wait', 'connecting…');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.delay = 250;
      this.onStatus('ok', 'connected');
      for (const hook of this.openHooks) hook();
    });
    ws.addEventListener('message', (ev) => this.receive(ev.data));
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      for (const [, p] of this.pending) { clearTimeout(p.timer); p.reject(new Error('connection lost')); }
      this.pending.clear();
      this.onStatus('bad', `connection lost, trying again in ${Math.round(this.delay / 100) / 10} s`);
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

  get open() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  // Called at every (re)connection, the first included.
  onOpen(fn) { this.openHooks.push(fn); if (this.open) fn(); }

  on(kind, fn) {
    if (!this.handlers.has(kind)) this.handlers.set(kind, []);
    this.handlers.get(kind).push(fn);
  }

  receive(text) {
    let msg;
    try { msg = JSON.parse(text); } catch { return; }
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.t === 'error') p.reject(Object.assign(new Error(msg.message), { code: msg.code, reply: msg }));
      else p.resolve(msg);
      return;
    }
    for (const fn of this.handlers.get(msg.t) || []) fn(msg);
  }

  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  // Sends msg with a fresh id; resolves with the answer, rejects with an
  // error answer (err.code, err.message) or when no answer comes in time.
  request(msg, timeoutMs = 30000) {
    return new Promise((resolve, reject) => {
      if (!this.open) { reject(Object.assign(new Error('not connected to the server'), { code: 'offline' })); return; }
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(Object.assign(new Error('the server did not answer in time'), { code: 'timeout' }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
}
