import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it } from 'vitest'
import { relayThroughPrimary, type PrimaryChannel } from '../../src/cluster/relays.js'
import { Changes, type Change } from '../../src/shared/changes.js'

const link = (id: number): Change => ({ kind: 'link', id, domainId: 1, alias: `a${id}` })

describe('relayThroughPrimary', () => {
  // A worker's channel to its primary, as the process has it. Not the test process's own:
  // that is the test runner's channel to its workers.
  let sent: unknown[]
  let channel: EventEmitter & PrimaryChannel & { connected: boolean }

  beforeEach(() => {
    sent = []
    channel = Object.assign(new EventEmitter(), {
      connected: true,
      send: (
        message: unknown,
        _handle: undefined,
        _options: undefined,
        done: (error: null) => void,
      ) => {
        sent.push(message)
        done(null)
        return true
      },
    })
  })

  it('sends the changes of one turn as one message, in order, and no remote ones', async () => {
    const changes = new Changes()
    const stop = relayThroughPrimary(changes, channel)
    for (let id = 1; id <= 1000; id++) changes.publish(link(id))
    changes.publish(link(5000), true)
    expect(sent).toEqual([])
    await Promise.resolve()
    expect(sent).toEqual([
      { slink: 'changes', changes: Array.from({ length: 1000 }, (_, i) => link(i + 1)) },
    ])
    changes.publish({ kind: 'domain', id: 7, name: 'go.example' })
    await Promise.resolve()
    expect(sent).toHaveLength(2)
    expect(sent[1]).toEqual({
      slink: 'changes',
      changes: [{ kind: 'domain', id: 7, name: 'go.example' }],
    })
    stop()
  })

  it('publishes each relayed change as remote, and sends nothing once the channel is closed', async () => {
    const changes = new Changes()
    const heard: [Change, boolean][] = []
    changes.subscribe((change, remote) => heard.push([change, remote]))
    const stop = relayThroughPrimary(changes, channel)
    channel.emit('message', { slink: 'changes', changes: [link(1), link(2)] }, undefined)
    channel.emit('message', { slink: 'other' }, undefined)
    expect(heard).toEqual([
      [link(1), true],
      [link(2), true],
    ])
    expect(sent).toEqual([])
    changes.publish(link(3))
    await Promise.resolve()
    expect(sent).toEqual([{ slink: 'changes', changes: [link(3)] }])
    channel.connected = false
    changes.publish(link(4))
    await Promise.resolve()
    expect(sent).toHaveLength(1)
    stop()
  })
})
