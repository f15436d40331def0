/** What the service keeps of clicks (CLICK_LOG_DAYS): said on the Account and Admin pages. */

export function retentionText(clickLogDays: number | null): string {
  if (clickLogDays === null) return 'Raw clicks and daily statistics are kept for ever.'
  const days = clickLogDays === 1 ? '1 day' : `${clickLogDays} days`
  return `Raw clicks are kept ${days}; daily statistics are kept for ever.`
}

export function RetentionNote(props: { clickLogDays: number | null }) {
  return (
    <section class="panel" aria-labelledby="kept-heading">
      <h2 id="kept-heading">What is kept</h2>
      <p id="click-retention">{retentionText(props.clickLogDays)}</p>
    </section>
  )
}
