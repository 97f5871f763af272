// The room's WebSocket (docs/protocol.md, version 2): hello on every (re)connect, the seat
// token kept in localStorage per room code, ping keep-alive, reconnect with back-off.
import { store } from "./dom.js";

const PING_MS = 20000;
const SILENT_MS = 50000; // no message for this long: the socket is dead, reconnect
const MAX_DELAY_MS = 10000;

export function tokenKey(code) {
  return `erqishi.token.${code}`;
}

export class Connection {
  /**
   * @param {string} code room code
   * @param {{onMessage: Function, onStatus: Function, hello: Function}} handlers
   *   hello() returns the extra fields of the hello message (name, lang).
   */
  constructor(code, handlers) {
    this.code = code;
    this.handlers = handlers;
    this.ws = null;
    this.closed = false;
    this.attempts = 0;
    this.timer = null;
    this.pinger = null;
    this.lastSeen = 0;
    this.status = "idle";
    this._wake = () => {
      if (!this.closed && (!this.ws || this.ws.readyState === WebSocket.CLOSED)) this._connect(true);
    };
    window.addEventListener("online", this._wake);
    document.addEventListener("visibilitychange", this._wake);
  }

  get token() {
    return store.get(tokenKey(this.code));
  }

  start() {
    this.closed = false;
    this._connect(false);
  }

  /** Connect anew at once (the next state is then whole). */
  restart() {
    this.closed = false;
    this._connect(true);
  }

  _setStatus(status) {
    this.status = status;
    if (this.handlers.onStatus) this.handlers.onStatus(status);
  }

  _connect(now) {
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = this.ws.onmessage = this.ws.onopen = this.ws.onerror = null;
      try {
        this.ws.close();
      } catch {
        /* already closed */
      }
    }
    const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${proto}//${window.location.host}/ws/${encodeURIComponent(this.code)}`;
    this._setStatus(this.attempts > 0 || now ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this._retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.lastSeen = Date.now();
      this._setStatus("open");
      this.sendHello();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        if (Date.now() - this.lastSeen > SILENT_MS) {
          ws.close();
          return;
        }
        this.send({ type: "ping" });
      }, PING_MS);
    };
    ws.onmessage = (event) => {
      this.lastSeen = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "welcome" && typeof msg.token === "string") store.set(tokenKey(this.code), msg.token);
      if (msg.type === "pong") return;
      if (this.handlers.onMessage) this.handlers.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (!this.closed) this._retry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  _retry() {
    this._setStatus("reconnecting");
    const delay = Math.min(MAX_DELAY_MS, 500 * 2 ** this.attempts);
    this.attempts += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this._connect(true), delay);
  }

  sendHello() {
    const extra = this.handlers.hello ? this.handlers.hello() : {};
    const msg = { type: "hello" };
    if (extra.lang) msg.lang = extra.lang;
    const token = this.token;
    if (token) msg.token = token;
    if (extra.name) msg.name = extra.name;
    this.send(msg);
  }

  /** Send one message ({type, …}); false when the socket is not open. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: 2, ...msg }));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener("online", this._wake);
    document.removeEventListener("visibilitychange", this._wake);
    if (this.ws) {
      this.ws.onclose = null;
      try {
        this.ws.close();
      } catch {
        /* already closed */
      }
    }
    this._setStatus("idle");
  }
}
