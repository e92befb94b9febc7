import { type AddressInfo, createServer, type Server, Socket } from 'node:net'

/**
 * A TCP relay to a server (PostgreSQL in these tests) that can be cut (every connection reset, new ones refused)
 * and restored: the database going away under a running client, without stopping the shared test server.
 */
export class Relay {
  server: Server | undefined
  sockets = new Set<Socket>()
  /** The port it listens on: 0 asks the OS for a free one, kept across a cut so that clients come back to it. */
  port: number
  constructor(
    readonly target: { host: string; port: number },
    port = 0,
  ) {
    this.port = port
  }
  async up() {
    this.server = createServer((client) => {
      const upstream = new Socket()
      upstream.connect(this.target.port, this.target.host)
      for (const s of [client, upstream]) {
        this.sockets.add(s)
        s.on('close', () => this.sockets.delete(s))
        s.on('error', () => {})
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', r))
    this.port = (this.server.address() as AddressInfo).port
  }
  async down() {
    const server = this.server
    this.server = undefined
    for (const s of this.sockets) s.destroy()
    this.sockets.clear()
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  }
}
