/** A local destination site for title fetching: each path answers as the test tells it to. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

export type Handler = (request: IncomingMessage, response: ServerResponse) => void

export interface PagesServer {
  origin: string
  on(path: string, handler: Handler): void
  html(path: string, body: string): void
  close(): Promise<void>
}

export async function startPagesServer(): Promise<PagesServer> {
  const handlers = new Map<string, Handler>()
  const server = createServer((request, response) => {
    const handler = handlers.get(request.url ?? '')
    if (handler) return handler(request, response)
    response.writeHead(404, { 'content-type': 'text/html' })
    response.end('<title>Not here</title>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    origin: `http://127.0.0.1:${port}`,
    on: (path, handler) => handlers.set(path, handler),
    html: (path, body) =>
      handlers.set(path, (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        response.end(body)
      }),
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
