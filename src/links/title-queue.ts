/**
 * Runs title fetches in the background, a few at a time: the API answers at once and the title
 * appears when (and if) the page gives one.
 *
 * The database is the queue of record: a link waiting for its title carries `title_fetch_at`
 * (set with the change that asked for it), cleared when its fetch ends, whatever the outcome. The
 * memory holds a bounded window of it. So a stop never waits for the network: `stop()` aborts
 * the fetches in flight and drops the window, leaving those links marked, and `resume()` at the
 * next start takes every marked link up again, in id order, a window at a time; a burst beyond
 * the window is taken up the same way at the next start instead of being forgotten.
 */
import { fetchTitle, type TitleFetchOptions } from './title-fetch.js'

export interface TitleJob {
  id: number
  url: string
}

/** What the queue needs from the links: keeping a title, and the marks of pending fetches. */
export interface TitleJobs {
  /**
   * Keeps a fetched title (unless the client set one or the URL changed meanwhile) and clears
   * the mark of the fetch of `url`, in one transaction.
   */
  save(id: number, url: string, title: string): Promise<void>
  /** Marks a link as waiting for its title (when the change itself did not). */
  mark(id: number): Promise<void>
  /** Clears the mark once the fetch of `url` has ended without a title (a newer URL keeps its own). */
  finish(id: number, url: string): Promise<void>
  /** Marked links after `afterId`, in id order. */
  pending(afterId: number, limit: number): Promise<TitleJob[]>
}

export type TitleQueueOptions = TitleFetchOptions & { concurrency?: number; backlog?: number }

export class TitleQueue {
  private readonly waiting: TitleJob[] = []
  private readonly running = new Map<number, AbortController>()
  private idleWaiters: (() => void)[] = []
  private roomWaiters: (() => void)[] = []
  private stopped = false

  constructor(
    private readonly jobs: TitleJobs,
    private readonly options: TitleQueueOptions = {},
  ) {}

  private get backlog(): number {
    return this.options.backlog ?? 1000
  }

  /** A fetch for a link whose change already marked it. Beyond the window, it waits in the database. */
  enqueue(id: number, url: string): void {
    if (this.stopped || this.waiting.length >= this.backlog) return
    this.waiting.push({ id, url })
    this.pump()
  }

  /** Marks the link, then queues its fetch (for changes that could not set the mark themselves). */
  async markAndEnqueue(id: number, url: string): Promise<void> {
    await this.jobs.mark(id)
    this.enqueue(id, url)
  }

  /**
   * Takes up the fetches a previous run left marked, a window at a time, until none is left or
   * the queue stops. Resolves when done (callers need not wait for it).
   */
  async resume(batch = 100): Promise<number> {
    let after = 0
    let taken = 0
    while (!this.stopped) {
      const jobs = await this.jobs.pending(after, batch)
      if (jobs.length === 0) break
      for (const job of jobs) {
        // A link queued by a change since the start is already in the window.
        if (!this.running.has(job.id) && !this.waiting.some((w) => w.id === job.id)) {
          this.waiting.push(job)
          taken++
        }
        after = job.id
      }
      this.pump()
      await this.room()
    }
    return taken
  }

  /** Resolves once nothing is waiting or running (tests). */
  idle(): Promise<void> {
    if (this.running.size === 0 && this.waiting.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /**
   * Stops at once: takes no more fetches, aborts those in flight and forgets the window. Their
   * links stay marked, for `resume()` at the next start. Resolves when the aborted fetches have
   * settled (promptly: an abort closes their sockets).
   */
  async stop(): Promise<void> {
    this.stopped = true
    this.waiting.length = 0
    for (const controller of this.running.values()) controller.abort()
    for (const resolve of this.roomWaiters.splice(0)) resolve()
    await this.idle()
  }

  /** Resolves when the window has room for another batch (or the queue stops). */
  private room(): Promise<void> {
    if (this.stopped || this.waiting.length < this.backlog / 2) return Promise.resolve()
    return new Promise((resolve) => this.roomWaiters.push(resolve))
  }

  private pump(): void {
    while (
      !this.stopped &&
      this.running.size < (this.options.concurrency ?? 2) &&
      this.waiting.length > 0
    ) {
      const job = this.waiting.shift()!
      const controller = new AbortController()
      this.running.set(job.id, controller)
      void this.run(job, controller.signal).finally(() => {
        this.running.delete(job.id)
        this.pump()
        if (this.waiting.length < this.backlog / 2) {
          for (const resolve of this.roomWaiters.splice(0)) resolve()
        }
        if (this.running.size === 0 && this.waiting.length === 0) {
          for (const resolve of this.idleWaiters.splice(0)) resolve()
        }
      })
    }
  }

  private async run(job: TitleJob, signal: AbortSignal): Promise<void> {
    const title = await fetchTitle(job.url, { ...this.options, signal })
    // An aborted fetch stays marked: the next start takes it up again.
    if (signal.aborted) return
    try {
      if (title !== null) await this.jobs.save(job.id, job.url, title)
      else await this.jobs.finish(job.id, job.url)
    } catch {
      // The link may be gone or the database busy; a title is a nicety, not data to keep.
    }
  }
}
