/** Timestamps are stored as epoch milliseconds and shown as UTC ISO-8601 with microseconds. */
export function isoMicro(ms: number | null): string | null {
  if (ms === null) return null
  // Written out by hand for the years 1000 to 9999: twice as fast as toISOString(), and a list
  // of 25 links shows a hundred of them. Other years (and invalid times) as toISOString says.
  if (!(ms >= YEAR_1000 && ms < YEAR_10000)) return `${new Date(ms).toISOString().slice(0, -1)}000Z`
  const t = new Date(ms)
  const milli = t.getUTCMilliseconds()
  return `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())}T${two(
    t.getUTCHours(),
  )}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}000Z`
}

const YEAR_1000 = Date.UTC(1000, 0, 1)
const YEAR_10000 = Date.UTC(10000, 0, 1)

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

/** The wall clock of an instant in a time zone, as numbers. */
function wallClock(instant: number, timeZone: string) {
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
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  }
}

function offsetMs(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone)
  const local = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return local - Math.floor(instant / 1000) * 1000
}

const two = (n: number) => String(n).padStart(2, '0')

/** Wall-clock `YYYY-MM-DD` and `HH:MM` of an instant in a time zone. */
export function utcToZoned(instant: number, timeZone: string): { date: string; time: string } {
  const w = wallClock(instant, timeZone)
  return {
    date: `${String(w.year).padStart(4, '0')}-${two(w.month)}-${two(w.day)}`,
    time: `${two(w.hour)}:${two(w.minute)}`,
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
