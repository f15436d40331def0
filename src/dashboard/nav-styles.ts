/**
 * The top bar's folding navigation: the full list at desktop widths, a "Menu" that opens a
 * list below it on a phone (shell.tsx renders both; one of them is shown at a time).
 */
export const NAV_STYLES = `
.topbar .brand,.who button{white-space:nowrap}
#viewer-name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:12rem}
.nav-fold{display:none;position:relative}
.nav-fold>summary{cursor:pointer;list-style:none;padding:.35rem .7rem;border:1px solid var(--line);border-radius:8px;font-weight:600}
.nav-fold>summary::-webkit-details-marker{display:none}
.nav-fold>summary::after{content:" ▾"}
.nav-fold[open]>summary{border-color:var(--accent)}
.nav-fold .nav{position:absolute;left:0;top:calc(100% + .35rem);z-index:5;flex-direction:column;flex-wrap:nowrap;min-width:12rem;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.35rem;box-shadow:0 8px 24px rgb(0 0 0 / .2)}
@media (max-width:40rem){.nav-wide{display:none}.nav-fold{display:block}
.topbar .inner{flex-wrap:nowrap;gap:.5rem}
.who{margin-left:auto;flex-wrap:nowrap;min-width:0}
#viewer-name{max-width:8rem}}
.event-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:0 1rem}
.attempts{margin:0;padding-left:1.1rem}
.hook-reason{color:var(--fg)}
`.trim()
