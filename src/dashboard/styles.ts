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
.totals li{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.8rem 1rem}
.totals strong{display:block;font-size:1.7rem;line-height:1.2;font-variant-numeric:tabular-nums}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:0 1rem}
.table-scroll{overflow-x:auto}
.nowrap{white-space:nowrap}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.filter label{margin:0 0 .25rem;font-size:.9rem}
.filter.grow{flex:1 1 14rem}
select{font:inherit;padding:.55rem .5rem;border:1px solid var(--line);border-radius:8px;background:var(--card);color:inherit}
.link-title{display:block}
.link-url{display:block}
.pager{display:flex;gap:1rem;align-items:center;justify-content:center;margin:1rem 0}
.link-space{display:block}
.notice{border-left:4px solid var(--accent);padding:.4rem .8rem;background:var(--bg);border-radius:4px}
.field-error{color:var(--error);font-weight:600;margin:.3rem 0 0}
.check{display:flex;align-items:center;gap:.5rem;margin:1rem 0}.check input{width:auto;margin:0}.check label{margin:0}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
@media (max-width:40rem){.cards thead{position:absolute;left:-9999px}
.cards tr{display:block;border-bottom:1px solid var(--line);padding:.5rem 0}
.cards td{display:block;border:0;padding:.1rem 0;text-align:left;white-space:normal}
.cards td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}
.cards td:empty{display:none}}
`.trim()
