/** A bounded stream of requests over keep-alive connections, counted exactly. */
import { Agent, request } from 'node:http'

/** What a stream of keep-alive requests saw: answers by status, and failures (socket errors). */
interface Tally {
  requests: number
  byStatus: Map<number, number>
  failures: string[]
}

/**
 * `loops` clients, each sending one request after another on keep-alive connections until
 * `stop()`; every request started is finished before `done` resolves, so the tally is exact.
 */
export function stream(port: number, path: string, headers: Record<string, string>, loops: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: loops })
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end()
    })
  const tally: Tally = { requests: 0, byStatus: new Map(), failures: [] }
  let stopped = false
  const reached: { count: number; resolve: () => void }[] = []
  const loop = async () => {
    while (!stopped) {
      tally.requests++
      try {
        const status = await get()
        tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1)
      } catch (error) {
        tally.failures.push(String(error))
      }
      for (const r of reached) if (tally.requests >= r.count) r.resolve()
    }
  }
  const done = Promise.all(Array.from({ length: loops }, loop))
  return {
    tally,
    after: (count: number) => new Promise<void>((resolve) => reached.push({ count, resolve })),
    stop: async () => {
      stopped = true
      await done
      agent.destroy()
      return tally
    },
  }
}
