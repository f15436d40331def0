/**
 * Timing requests the way a client sees them: one keep-alive connection to the server, each
 * request timed from sending to the last byte, warmed up first, then the median (and the
 * slowest) of many runs.
 */
import { Agent, request } from 'node:http'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface Timing {
  medianMs: number
  p90Ms: number
  maxMs: number
  bytes: number
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

export function get(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return send(port, 'GET', path, headers)
}

/** A form POST (the API takes form-encoded bodies). */
export function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  form: Record<string, string>,
  method = 'POST',
): Promise<Answer> {
  const type = { 'content-type': 'application/x-www-form-urlencoded' }
  return send(port, method, path, { ...headers, ...type }, new URLSearchParams(form).toString())
}

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Times `runs` GETs of `path` after `warm` untimed ones; every answer must be a 200. */
export async function time(
  port: number,
  path: string,
  headers: Record<string, string>,
  runs = 31,
  warm = 5,
): Promise<Timing> {
  let bytes = 0
  const once = async () => {
    const answer = await get(port, path, headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`)
    bytes = Buffer.byteLength(answer.body)
  }
  for (let i = 0; i < warm; i++) await once()
  const ms: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint()
    await once()
    ms.push(Number(process.hrtime.bigint() - started) / 1e6)
  }
  ms.sort((a, b) => a - b)
  return {
    medianMs: ms[Math.floor(ms.length / 2)]!,
    p90Ms: ms[Math.floor(ms.length * 0.9)]!,
    maxMs: ms[ms.length - 1]!,
    bytes,
  }
}

export function closeConnections(): void {
  agent.destroy()
}
