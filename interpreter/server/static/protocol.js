// The table's websocket (docs/server.md, the protocol): one connection that says hello on
// every open and opens itself again, with a growing delay, when it drops.  The server holds
// the game; a page that reconnects asks only for the account entries it does not have.

const FIRST_DELAY = 500;        // ms before the first retry
const MOST_DELAY = 15000;       // the delay stops growing here
const PING_EVERY = 25000;       // keeps proxies from closing a quiet connection

/** The websocket address of this server: ws: beside http:, wss: beside https:. */
export function socketAddress() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

export class Connection {
  /**
   * hello(): the hello frame to send on each open (it carries `since`, which changes).
   * onFrame(frame): each frame the server sends, parsed.
   * onStatus(status, delay): "connecting", "open", "waiting" (a retry in `delay` ms), "stopped".
   */
  constructor(address, hello, onFrame, onStatus) {
    this.address = address;
    this.hello = hello;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.socket = null;
    this.retries = 0;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    window.addEventListener("online", () => this.soon());
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.onStatus("connecting");
    const socket = new WebSocket(this.address);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retries = 0;
      this.onStatus("open");
      socket.send(JSON.stringify(this.hello()));
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      if (frame && typeof frame === "object") this.onFrame(frame);
    });
    socket.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.socket === socket) this.socket = null;
      if (!this.stopped) this.retry();
    });
  }

  retry() {
    const delay = Math.min(MOST_DELAY, FIRST_DELAY * 2 ** this.retries) * (0.8 + Math.random() * 0.4);
    this.retries += 1;
    this.onStatus("waiting", delay);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Open now, when a retry is waiting (the browser says it is online again). */
  soon() {
    if (this.timer !== null) this.open();
  }

  /** Send a frame; false when the connection is not open (the page says so, nothing is queued:
   *  a move queued for later could be made for a table that has moved on). */
  send(frame) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Stop for good (a link the server does not know: retrying cannot help). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
    this.onStatus("stopped");
  }
}
