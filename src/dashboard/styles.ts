import { FIRST_RUN_STYLES } from './first-run-styles.js'
import { LINK_FORM_STYLES } from './link-form-styles.js'
import { LINK_STYLES } from './link-styles.js'
import { THEME_STYLES } from './theme-styles.js'
import { LINK_LIST_STYLES } from './link-list-styles.js'
import { NAV_STYLES } from './nav-styles.js'
import { SOCIAL_CARD_STYLES } from './social-card-styles.js'
import { STATS_STYLES } from './stats-styles.js'
import { TAG_CHIPS_STYLES } from './tag-chips-styles.js'

/**
 * The dashboard's additions to the pages' stylesheet (same colours, same dark mode): a top bar
 * with the navigation that wraps on a phone, a content column, figures, tables and forms.
 */
export const DASHBOARD_STYLESHEET = `
body.app{display:block;padding:0}
.skip{position:absolute;left:-999px;top:.5rem}.skip:focus{left:.5rem;z-index:2;background:var(--card);padding:.4rem .6rem}
.topbar{background:var(--card);border-bottom:1px solid var(--line)}
.topbar .inner{max-width:72rem;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem}
.brand{font-weight:700;font-size:1.1rem;color:var(--fg);text-decoration:none;margin-right:.5rem}
.nav{display:flex;flex-wrap:wrap;gap:.25rem;margin:0;padding:0;list-style:none;flex:1 1 auto}
.nav a{display:block;padding:.35rem .6rem;border-radius:6px;color:var(--fg);text-decoration:none}
.nav a:hover{background:var(--bg)}
.nav a[aria-current=page]{background:var(--accent);color:var(--accent-fg)}
.who{display:flex;align-items:center;gap:.5rem;flex-wrap:wrap;font-size:.9rem}
.who form{margin:0}
.who button{padding:.3rem .7rem;font-size:.9rem}
body.app main{max-width:72rem;margin:0 auto;background:transparent;border:0;padding:1.25rem 1rem 3rem}
.panel{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1rem 1.25rem;margin:0 0 1rem}
.panel h2{margin-top:0}
.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.75rem;margin:0 0 1rem;padding:0;list-style:none}
.totals li{min-width:0;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.8rem 1rem}
.totals strong{display:block;font-size:clamp(1.15rem,5vw,1.7rem);line-height:1.2;font-variant-numeric:tabular-nums}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:0 1rem}
.table-scroll{overflow-x:auto}
.nowrap{white-space:nowrap}
.words{overflow-wrap:break-word}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.filter{max-width:100%}
.filter label{margin:0 0 .25rem;font-size:.9rem}
.filter.grow{flex:1 1 14rem}
select{font:inherit;padding:.55rem .5rem;border:1px solid var(--line);border-radius:8px;background:var(--card);color:inherit;max-width:100%}
.link-title{display:block}
.link-url{display:block}
.pager{display:flex;gap:1rem;align-items:center;justify-content:center;margin:1rem 0}
.link-space{display:block}
.notice{border-left:4px solid var(--accent);padding:.4rem .8rem;background:var(--bg);border-radius:4px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.row-actions{display:flex;gap:.75rem}.row-actions.wrap{flex-wrap:wrap;gap:.4rem}
form.inline{margin:0;display:inline}
.small-button{padding:.3rem .6rem;font-size:.85rem}
input.key{width:100%;font-family:ui-monospace,monospace}
.hint{margin:.3rem 0 0}
button.danger{background:var(--error);border-color:var(--error);color:#fff}
.swatch::before{content:"";display:inline-block;width:.8rem;height:.8rem;border-radius:50%;margin-right:.4rem;vertical-align:-.05rem;background:currentColor}
.color-1::before{color:#2d58e6}.color-2::before{color:#1f9d55}.color-3::before{color:#e07b00}.color-4::before{color:#d0343a}.color-5::before{color:#7c4dcc}.color-6::before{color:#7a828c}
.field-error{color:var(--error);font-weight:600;margin:.3rem 0 0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.panel-head{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.25rem 1rem}
.period-form{margin:.5rem 0 1rem}
.map{display:block;width:100%;height:auto}.map path{stroke:var(--card);stroke-width:.5}
.map-0{fill:var(--line)}.map-1{fill:color-mix(in srgb,var(--accent) 20%,var(--line))}
.map-2{fill:color-mix(in srgb,var(--accent) 40%,var(--line))}.map-3{fill:color-mix(in srgb,var(--accent) 60%,var(--line))}
.map-4{fill:color-mix(in srgb,var(--accent) 80%,var(--line))}.map-5{fill:var(--accent)}
.qr-image{display:block;width:16rem;max-width:100%;height:auto;background:#fff;padding:.5rem;border-radius:8px}
.check{display:flex;align-items:center;gap:.5rem;margin:1rem 0}.check input{width:auto;margin:0}.check label{margin:0}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
@media (max-width:40rem){.cards thead{position:absolute;left:-9999px}
.cards tr{display:block;border-bottom:1px solid var(--line);padding:.5rem 0}
.cards td{display:block;border:0;padding:.1rem 0;text-align:left;white-space:normal}
.cards td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}
.cards td:empty{display:none}}

${LINK_STYLES}

${FIRST_RUN_STYLES}

${LINK_FORM_STYLES}
${SOCIAL_CARD_STYLES}
${TAG_CHIPS_STYLES}

${THEME_STYLES}

${LINK_LIST_STYLES}

${NAV_STYLES}

${STATS_STYLES}
`.trim()
