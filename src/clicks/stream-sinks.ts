/**
 * Where the click stream goes: NATS JetStream (`nats://`: stream SLINK_CLICKS, subject
 * slink.clicks, created when missing; each event's id is its `Nats-Msg-Id`, so JetStream drops a
 * repeat within its duplicate window) or a Redis Stream (`redis://`: `XADD slink:clicks * event
 * <json>`, one pipeline a batch). `publish` resolves once the stream has acknowledged every event
 * and throws otherwise (the batch is published again later).
 */
import { Redis } from 'ioredis'
import { connect, Events, type JetStreamClient, type NatsConnection } from 'nats'

export interface StreamEvent {
  id: number
  json: string
}

export interface StreamSink {
  publish(events: readonly StreamEvent[]): Promise<void>
  /** Calls `listener` each time the stream is reachable again after losing it. */
  onBack(listener: () => void): void
  close(): Promise<void>
}

export const NATS_STREAM = 'SLINK_CLICKS'
export const NATS_SUBJECT = 'slink.clicks'
export const REDIS_STREAM_KEY = 'slink:clicks'

class NatsSink implements StreamSink {
  private connecting: Promise<{ nc: NatsConnection; js: JetStreamClient }> | null = null
  private readonly encoder = new TextEncoder()
  private readonly backListeners: (() => void)[] = []
  /** Publishes waiting for their acks, failed by a `disconnect` (their acks will not come). */
  private readonly waiting = new Set<(error: Error) => void>()
  /** Between a `disconnect` and the next `reconnect`: a publish would only wait for its timeout. */
  private away = false

  constructor(private readonly url: string) {}

  private connection() {
    return (this.connecting ??= (async () => {
      const nc = await connect({
        servers: this.url,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        timeout: 2000,
      })
      void this.follow(nc)
      try {
        const jsm = await nc.jetstreamManager()
        const names: string[] = []
        for await (const name of jsm.streams.names(NATS_SUBJECT)) names.push(name)
        if (!names.includes(NATS_STREAM)) {
          await jsm.streams.add({ name: NATS_STREAM, subjects: [NATS_SUBJECT] })
        }
        return { nc, js: nc.jetstream() }
      } catch (error) {
        await nc.close()
        throw error
      }
    })().catch((error: unknown) => {
      this.connecting = null
      throw error
    }))
  }

  private async follow(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) {
        this.away = true
        for (const fail of this.waiting) fail(new Error('NATS disconnected before acknowledging'))
      }
      if (status.type === Events.Reconnect) {
        this.away = false
        for (const listener of this.backListeners) listener()
      }
    }
  }

  onBack(listener: () => void): void {
    this.backListeners.push(listener)
  }

  async publish(events: readonly StreamEvent[]): Promise<void> {
    const { js } = await this.connection()
    if (this.away) throw new Error('NATS is disconnected')
    const acked = Promise.all(
      events.map((e) =>
        js.publish(NATS_SUBJECT, this.encoder.encode(e.json), {
          msgID: String(e.id),
          timeout: 5000,
        }),
      ),
    )
    // A batch failed by a disconnect is published again; JetStream drops what it already had.
    acked.catch(() => {})
    let fail!: (error: Error) => void
    const lost = new Promise<never>((_, reject) => (fail = reject))
    this.waiting.add(fail)
    try {
      await Promise.race([acked, lost])
    } finally {
      this.waiting.delete(fail)
    }
  }

  async close(): Promise<void> {
    const open = this.connecting
    this.connecting = null
    await open?.then(({ nc }) => nc.close()).catch(() => {})
  }
}

class RedisStreamSink implements StreamSink {
  private readonly redis: Redis

  constructor(url: string) {
    // Commands fail at once while Redis is away (no offline queue): the batch waits for a retry.
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(times * 100, 1000),
    })
    this.redis.on('error', () => {})
  }

  onBack(listener: () => void): void {
    let lost = false
    this.redis.on('close', () => (lost = true))
    this.redis.on('ready', () => {
      if (lost) listener()
      lost = false
    })
  }

  async publish(events: readonly StreamEvent[]): Promise<void> {
    const pipeline = this.redis.pipeline()
    for (const e of events) pipeline.xadd(REDIS_STREAM_KEY, '*', 'event', e.json)
    const results = (await pipeline.exec()) ?? []
    const failed = results.find(([error]) => error !== null)
    if (failed || results.length !== events.length) {
      throw failed?.[0] ?? new Error('Redis answered part of the batch')
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect())
  }
}

export function streamSinkFor(url: string): StreamSink {
  return url.startsWith('nats://') ? new NatsSink(url) : new RedisStreamSink(url)
}
