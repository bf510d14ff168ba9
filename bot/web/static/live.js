// The live feed (GET /api/live): the session goes in the first message, never in the URL (URLs
// reach logs). The server pings every 20 s; a socket silent for 50 s is taken for dead. A lost
// socket is opened again after 0.5 s, 1 s, 2 s, ... up to 15 s (with jitter, so a restarted bot
// is not met by every page at once); after hello the server sends the current game at once, so
// the page catches up with whatever it missed.

const SILENCE_MS = 50_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;

export class Live {
  constructor(session, { onMessage, onState }) {
    this.session = session;
    this.onMessage = onMessage;
    this.onState = onState;
    this.attempt = 0;
    this.socket = null;
    this.watchdog = null;
    this.retry = null;
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.watchdog);
    this.socket?.close();
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}/api/live`);
    this.socket = socket;
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify({ type: 'hello', session: this.session }));
      this.feed();
    });
    socket.addEventListener('message', (event) => {
      this.feed();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === 'ping') {
        socket.send(JSON.stringify({ type: 'pong' }));
        return;
      }
      if (this.attempt > 0 || message.type === 'game') this.onState('live');
      this.attempt = 0;
      this.onMessage(message);
    });
    socket.addEventListener('close', () => this.lost(socket));
    socket.addEventListener('error', () => socket.close());
  }

  feed() {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.socket?.close(), SILENCE_MS);
  }

  lost(socket) {
    if (socket !== this.socket) return;
    clearTimeout(this.watchdog);
    if (this.stopped) return;
    this.onState('reconnecting');
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.retry = setTimeout(() => this.open(), delay / 2 + Math.random() * (delay / 2));
  }
}
