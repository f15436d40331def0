/**
 * Change notifications from the services to whoever caches what they change (the redirect
 * cache). In one process these are plain callbacks; a relay (src/cluster/) carries them to the
 * other processes and publishes theirs here, marked remote.
 */
export type Change =
  | { kind: 'link'; id: number; domainId: number; alias: string }
  | { kind: 'domain'; id: number; name: string }

/** `remote`: the change was made by another process and relayed here. */
export type ChangeListener = (change: Change, remote: boolean) => void

export class Changes {
  private readonly listeners: ChangeListener[] = []

  subscribe(listener: ChangeListener): () => void {
    this.listeners.push(listener)
    return () => {
      const i = this.listeners.indexOf(listener)
      if (i !== -1) this.listeners.splice(i, 1)
    }
  }

  publish(change: Change, remote = false): void {
    for (const listener of this.listeners) listener(change, remote)
  }
}
