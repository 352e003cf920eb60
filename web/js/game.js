// A game the server referees (this window's, a network game's seat, or a
// watched one): joins it, follows its numbered events, sends this seat's
// moves, and after a lost connection joins again from the last event seen,
// so nothing is missed and nothing is applied twice.
import { notice } from './ui.js';

export class LiveGame {
  constructor(net, { id, token }, onChange) {
    this.net = net;
    this.id = id;
    this.token = token;
    this.onChange = onChange;
    this.seat = null;
    this.settings = null;
    this.events = [];       // compact events, seq 1..n
    this.state = null;      // the server's state after the last event
    this.lastSeq = 0;
    this.closed = false;
    this.joining = false;
    this.onEvent = (msg) => this.event(msg);
    net.on('event', this.onEvent);
    net.onOpen(() => { if (!this.closed) this.join(); });
  }

  close() { this.closed = true; }

  async join() {
    if (this.joining) return;
    this.joining = true;
    try {
      const msg = await this.net.request({ t: 'join', game: this.id, token: this.token, since: this.lastSeq });
      if (this.closed) return;
      this.seat = msg.seat;
      this.settings = msg.settings;
      for (const e of msg.events) if (e.seq === this.lastSeq + 1) { this.events.push(e); this.lastSeq = e.seq; }
      this.state = msg.state;
      this.stateReceived = performance.now();
      this.lastSeq = msg.state.seq;
      this.onChange('joined');
    } catch (err) {
      if (!this.closed) notice(`Cannot open this game: ${err.message}`, 'error', err.code || '');
      if (err.code === 'no_game' || err.code === 'bad_request') this.closed = true;
    } finally {
      this.joining = false;
    }
  }

  event(msg) {
    if (this.closed || msg.game !== this.id) return;
    if (msg.seq <= this.lastSeq) return;           // seen already (a join crossed it)
    if (msg.seq !== this.lastSeq + 1) { this.join(); return; }  // a gap: ask for what is missing
    const { state, t, game, ...compact } = msg;
    this.events.push(compact);
    this.lastSeq = msg.seq;
    this.state = state;
    this.stateReceived = performance.now();
    this.onChange('event', compact);
  }

  // The moves so far as [colour, point] pairs (passes as "pass").
  moves() {
    const out = [];
    for (const e of this.events) {
      if (e.kind === 'move') out.push([e.color, e.point]);
      else if (e.kind === 'pass') out.push([e.color, 'pass']);
    }
    return out;
  }

  myColor() {
    if (!this.state) return null;
    if (this.seat === 'both') return this.state.to_move;
    if (this.seat === 'black') return 'B';
    if (this.seat === 'white') return 'W';
    return null;
  }

  myTurn() {
    return !!this.state && !this.state.over && this.myColor() === this.state.to_move &&
           !(this.settings && this.settings.engine === this.state.to_move);
  }

  // Sends this seat's move ("D4", "pass" or "resign"); refusals are shown.
  async play(move) {
    try {
      await this.net.request({ t: 'play', game: this.id, token: this.token, after: this.lastSeq, move });
      return true;
    } catch (err) {
      notice(err.message, 'error', err.code || '');
      if (err.code === 'stale') this.join();
      return false;
    }
  }
}
