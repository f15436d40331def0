/**
 * Styles of the theme the dashboard's theme button chooses (`data-theme` on the root, set by
 * the dashboard script; without it the system's choice applies), the button itself and the
 * keyboard shortcuts dialog.
 */
import { DARK_COLOURS, LIGHT_COLOURS } from '../pages/styles.js'

export const THEME_STYLES = `
:root[data-theme=light]{color-scheme:light;${LIGHT_COLOURS}}
:root[data-theme=dark]{color-scheme:dark;${DARK_COLOURS}}
.who .theme-toggle{background:transparent;color:var(--fg);border-color:var(--line);font-weight:400;padding:.35rem .6rem;line-height:1}
#shortcuts{background:var(--card);color:var(--fg);border:1px solid var(--line);border-radius:12px;padding:1rem 1.25rem;max-width:min(24rem,calc(100vw - 2rem))}
#shortcuts::backdrop{background:rgb(0 0 0/.45)}
#shortcuts h2{margin:0 0 .5rem}
.shortcut-list{grid-template-columns:1fr;gap:.35rem}
.shortcut-list div{display:flex;gap:1rem;align-items:baseline}
.shortcut-list dt{min-width:3rem}
kbd{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:.05rem .4rem;background:var(--bg);color:var(--fg)}
.bookmarklet{cursor:grab}
`.trim()
