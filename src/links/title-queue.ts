/**
 * Runs title fetches in the background, a few at a time, with a bounded backlog: the API
 * answers at once and the title appears when (and if) the page gives one.
 */
import { fetchTitle, type TitleFetchOptions } from './title-fetch.js'

export class TitleQueue {
  private readonly waiting: { id: number; url: string }[] = []
  private running = 0
  private idleWaiters: (() => void)[] = []

  constructor(
    /** Keeps a fetched title (unless the client set one or the URL changed meanwhile). */
    private readonly save: (id: number, url: string, title: string) => Promise<void>,
    private readonly options: TitleFetchOptions & { concurrency?: number; backlog?: number } = {},
  ) {}

  enqueue(id: number, url: string): void {
    if (this.waiting.length >= (this.options.backlog ?? 1000)) return
    this.waiting.push({ id, url })
    this.pump()
  }

  /** Resolves once nothing is waiting or running (tests and shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  private pump(): void {
    while (this.running < (this.options.concurrency ?? 2) && this.waiting.length > 0) {
      const job = this.waiting.shift()!
      this.running++
      void this.run(job).finally(() => {
        this.running--
        this.pump()
        if (this.running === 0 && this.waiting.length === 0) {
          for (const resolve of this.idleWaiters.splice(0)) resolve()
        }
      })
    }
  }

  private async run(job: { id: number; url: string }): Promise<void> {
    const title = await fetchTitle(job.url, this.options)
    if (title === null) return
    try {
      await this.save(job.id, job.url, title)
    } catch {
      // The link may be gone or the database busy; a title is a nicety, not data to keep.
    }
  }
}
