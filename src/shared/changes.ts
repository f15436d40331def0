/**
 * Change notifications from the services to whoever caches what they change (the redirect
 * cache). In one process these are plain callbacks; across processes a broadcaster relays them.
 */
export type Change =
  | { kind: 'link'; id: number; domainId: number; alias: string }
  | { kind: 'domain'; id: number; name: string }

export type ChangeListener = (change: Change) => void

export class Changes {
  private readonly listeners: ChangeListener[] = []

  subscribe(listener: ChangeListener): () => void {
    this.listeners.push(listener)
    return () => {
      const i = this.listeners.indexOf(listener)
      if (i !== -1) this.listeners.splice(i, 1)
    }
  }

  publish(change: Change): void {
    for (const listener of this.listeners) listener(change)
  }
}
