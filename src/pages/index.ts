/** The visitor-facing pages of the redirect engine: pure functions from data to HTML + headers. */
export type { RenderedPage } from './layout.js'
export { passwordPage, type PasswordPageInput } from './password-page.js'
export {
  errorPage,
  linkDisabledPage,
  linkExpiredPage,
  notFoundPage,
  statsPrivatePage,
  tooManyAttemptsPage,
} from './notice-pages.js'
export { previewPage, type PreviewPageInput, type PreviewTargeting } from './preview-page.js'
export { socialPage, type SocialPageInput } from './social-page.js'
export {
  pixelPage,
  PIXEL_REDIRECT_DELAY_MS,
  PIXEL_REFRESH_SECONDS,
  type PixelPageInput,
} from './pixel-page.js'
export {
  statsPage,
  statsPeriodErrorPage,
  type StatsPageInput,
  type StatsTable,
  type StatsTableRow,
} from './stats-page.js'
export { barChart, niceCeiling, type BarChartInput, type ChartBar } from './svg-chart.js'
