/**
 * Carry change notifications between processes, so each process's redirect cache forgets what
 * another process changed: over Redis pub/sub between machines, or through the cluster primary
 * between the workers of one machine. Only local changes are sent; received ones are published
 * locally as remote.
 */
import type { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { Change, Changes } from '../shared/changes.js'

export function relayOverRedis(
  changes: Changes,
  publisher: Redis,
  subscriber: Redis,
): () => Promise<void> {
  // Channels are not scoped by database number; the name is, so deployments sharing a Redis
  // server on different databases do not hear each other.
  const channel = `slink:changes:${publisher.options.db ?? 0}`
  const origin = `${process.pid}-${Math.random().toString(36).slice(2)}`
  const unsubscribe = changes.subscribe((change, remote) => {
    if (remote) return
    publisher.publish(channel, JSON.stringify({ origin, change })).catch(() => {
      // Redis is away: other processes fall back on their cache's time to live.
    })
  })
  subscriber.subscribe(channel).catch(() => {})
  subscriber.on('message', (_channel: string, text: string) => {
    try {
      const message = JSON.parse(text) as { origin: string; change: Change }
      if (message.origin !== origin) changes.publish(message.change, true)
    } catch {
      // Not ours: ignore.
    }
  })
  return async () => {
    unsubscribe()
    await subscriber.unsubscribe(channel).catch(() => {})
  }
}

/** The changes a worker made in one turn of its event loop, in order. */
interface IpcMessage {
  slink: 'changes'
  changes: Change[]
}

function isIpcMessage(message: unknown): message is IpcMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as IpcMessage).slink === 'changes' &&
    Array.isArray((message as IpcMessage).changes)
  )
}

/** A cluster worker's channel to its primary: the process's own. */
export interface PrimaryChannel extends Pick<EventEmitter, 'on' | 'off'> {
  readonly connected: boolean
  send?(
    message: unknown,
    sendHandle: undefined,
    options: undefined,
    callback: (error: Error | null) => void,
  ): boolean
}

/**
 * In a cluster worker: send local changes to the primary, publish the ones it relays. The
 * changes of one turn go as one message (an import's batch makes a thousand at once).
 */
export function relayThroughPrimary(
  changes: Changes,
  channel: PrimaryChannel = process,
): () => void {
  let pending: Change[] = []
  const flush = () => {
    const message: IpcMessage = { slink: 'changes', changes: pending }
    pending = []
    // A worker whose channel has closed is stopping: its changes have no one to reach.
    if (channel.connected) channel.send?.(message, undefined, undefined, () => {})
  }
  const unsubscribe = changes.subscribe((change, remote) => {
    if (remote || !channel.send) return
    if (pending.length === 0) queueMicrotask(flush)
    pending.push(change)
  })
  const onMessage = (message: unknown) => {
    if (isIpcMessage(message)) for (const change of message.changes) changes.publish(change, true)
  }
  channel.on('message', onMessage)
  return () => {
    unsubscribe()
    channel.off('message', onMessage)
  }
}

/** In the cluster primary: pass each worker's changes on to every other worker. */
export function relayBetweenWorkers(
  workers: () => Iterable<{ id: number; send(message: unknown): boolean }>,
) {
  return (from: number, message: unknown): void => {
    if (!isIpcMessage(message)) return
    for (const worker of workers()) if (worker.id !== from) worker.send(message)
  }
}
