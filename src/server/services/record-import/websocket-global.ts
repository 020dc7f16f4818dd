// @medplum/ccda bundles Medplum's client library, which reads WebSocket.CLOSING and WebSocket.CLOSED when
// it loads. Node 22 has a global WebSocket; Node 20, which Kincare supports, has it only behind a flag. The
// import never opens a socket, so on Node 20 the two constants are all it needs: given here, before the
// library is imported (c-cda.ts imports it dynamically, after calling this; a static import would be
// hoisted above this code once bundled). Where a real WebSocket exists it is left alone.

export function installWebSocketConstants(): void {
  if (typeof globalThis.WebSocket !== 'undefined') return;
  class NoWebSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    constructor() {
      throw new Error('WebSockets are not used by the record import.');
    }
  }
  Object.defineProperty(globalThis, 'WebSocket', { value: NoWebSocket, configurable: true, writable: true });
}
