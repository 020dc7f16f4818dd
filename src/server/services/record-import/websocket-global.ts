// @medplum/ccda bundles Medplum's client library, which reads WebSocket.CLOSING and WebSocket.CLOSED when
// it loads. Node 22 has a global WebSocket; Node 20, which Kincare supports, has it only behind a flag. The
// import never opens a socket, so on Node 20 the two constants are all it needs: given here, before the
// library loads (c-cda.ts imports this first). Where a real WebSocket exists it is left alone.

if (typeof globalThis.WebSocket === 'undefined') {
  const constants = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;
  class NoWebSocket {
    static readonly CONNECTING = constants.CONNECTING;
    static readonly OPEN = constants.OPEN;
    static readonly CLOSING = constants.CLOSING;
    static readonly CLOSED = constants.CLOSED;
    constructor() {
      throw new Error('WebSockets are not used by the record import.');
    }
  }
  Object.defineProperty(globalThis, 'WebSocket', { value: NoWebSocket, configurable: true, writable: true });
}

export {};
