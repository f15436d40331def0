/** Timestamps are stored as epoch milliseconds and shown as UTC ISO-8601 with microseconds. */
export function isoMicro(ms: number | null): string | null {
  if (ms === null) return null
  return new Date(ms).toISOString().replace(/Z$/, '000Z')
}

/**
 * The UTC instant of a wall-clock date and time in an IANA time zone. A time that occurs twice
 * (clocks going back) is its first occurrence; a time that never occurs (clocks going forward)
 * moves forward by the gap, as clocks do.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number]
  const [h, mi] = time.split(':').map(Number) as [number, number]
  const asUtc = Date.UTC(y, mo - 1, d, h, mi)
  const halfDay = 12 * 3600 * 1000
  const before = asUtc - offsetMs(asUtc - halfDay, timeZone)
  const after = asUtc - offsetMs(asUtc + halfDay, timeZone)
  const matches = [before, after].filter((instant) => {
    const wall = utcToZoned(instant, timeZone)
    return wall.date === date && wall.time === time
  })
  return matches.length > 0 ? Math.min(...matches) : before
}

function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant))
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  )
  return local - Math.floor(instant / 1000) * 1000
}

/** Wall-clock `YYYY-MM-DD` and `HH:MM` of an instant in a time zone. */
export function utcToZoned(instant: number, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant))
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}`,
  }
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}
