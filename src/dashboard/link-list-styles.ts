/**
 * Styles of the links list (link-list-row.tsx, link-list-toolbar.tsx): the one-line toolbar
 * whose `<details>` open below it, rows of one line at desktop widths (the destination cut with
 * an ellipsis), status and feature badges whose text keeps 4.5:1 in both schemes, the row menu,
 * and cards on a phone.
 */
export const LINK_LIST_STYLES = `
.link-toolbar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:0 0 .5rem}
.toolbar-search{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;flex:1 1 22rem;margin:0;min-width:0}
.toolbar-search input[type=search]{flex:1 1 10rem;width:auto;min-width:0;padding:.5rem .7rem}
.link-toolbar button,.link-toolbar .button{padding:.5rem .9rem}
.toolbar-menu>summary{cursor:pointer;list-style:none;padding:.5rem .9rem;border:1px solid var(--line);border-radius:8px;background:var(--card);font-weight:600;white-space:nowrap}
.toolbar-menu>summary::-webkit-details-marker{display:none}
.toolbar-menu>summary::after{content:" ▾"}
.toolbar-menu[open]>summary{border-color:var(--accent)}
.toolbar-menu[open]{flex:1 1 100%;order:5}
.toolbar-menu[open]>summary{display:inline-block}
.toolbar-panel{margin:.5rem 0 0}
.toolbar-panel .bulk{margin:0}
.link-list{padding:0;overflow:visible}
#links{table-layout:fixed}
#links .select{width:2.25rem}#links .col-short{width:17.5rem}#links .col-status{width:15rem}
#links .col-clicks{width:4.5rem}#links .col-created{width:6.25rem}#links .col-actions{width:9.25rem}
#links th,#links td{padding:.45rem .5rem;vertical-align:middle}
#links th{white-space:nowrap}
#links a.sort{color:inherit;text-decoration:none}
#links a.sort:hover{text-decoration:underline}
#links .short-cell{white-space:nowrap}
#links .short-link{flex-wrap:nowrap;min-width:0}
.short-text{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.destination{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--fg);text-decoration:none;overflow-wrap:normal}
.destination:hover .host{text-decoration:underline}
.destination .link-title{display:inline;color:var(--muted);margin-left:.5rem}
.destination .host{color:var(--fg);font-weight:600}
.destination .rest{color:var(--muted)}
#links .status-cell{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.badge{display:inline-block;font-size:.75rem;line-height:1.3;font-weight:600;padding:.05rem .4rem;border-radius:999px;margin:0 .2rem .1rem 0;border:1px solid transparent}
.status-active{background:#e3f4e8;color:#14622b;border-color:#b9e2c5}
.status-expired{background:#fdf0dc;color:#7f4500;border-color:#f2d3a6}
.status-disabled{background:#eceef2;color:#454c59;border-color:#d3d7df}
.badge.feature{background:transparent;color:var(--muted);border-color:var(--line);font-weight:500}
.badge.tag{background:transparent;color:var(--accent,inherit);border-color:currentColor;font-weight:500;text-decoration:none}
.badge.tag:hover,.badge.tag:focus-visible{text-decoration:underline}
@media (prefers-color-scheme:dark){.status-active{background:#12301c;color:#86e0a4;border-color:#1f5232}
.status-expired{background:#3a2a10;color:#ffc46b;border-color:#5c4318}
.status-disabled{background:#2a2f38;color:#c9ced8;border-color:#3c434f}}
#links .actions-cell{white-space:nowrap;text-align:right}
#links .row-actions{display:inline-flex;flex-wrap:nowrap;gap:.75rem;align-items:center}
.row-menu{position:relative;display:inline-block}
.row-menu>summary{cursor:pointer;list-style:none;color:var(--accent);text-decoration:underline;padding:.1rem .2rem}
.row-menu>summary::-webkit-details-marker{display:none}
.row-menu>summary::after{content:" ▾"}
.row-menu .menu{position:absolute;right:0;top:100%;z-index:3;min-width:9rem;display:flex;flex-direction:column;align-items:stretch;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.3rem;box-shadow:0 6px 18px rgb(0 0 0 / .18);text-align:left}
.row-menu .menu a,.row-menu .menu button{display:block;width:100%;padding:.4rem .6rem;border:0;border-radius:6px;background:transparent;color:var(--accent);font-weight:400;text-align:left;text-decoration:none}
.row-menu .menu a:hover,.row-menu .menu button:hover{background:var(--bg)}
.row-menu .menu form{margin:0}
@media (max-width:40rem){#links,#links tbody{display:block;width:100%}
#links .select,#links th{width:auto}
#links .created-cell{display:none}
.link-list{padding:0 .75rem}
#links tr{position:relative;padding:.6rem 0}
#links td{padding:.1rem 0}
#links .select{position:absolute;right:0;top:.7rem;width:auto}
#links .short-cell{padding-right:2rem}
.destination{max-width:100%}
#links .status-cell{white-space:normal}
#links .status-cell::before,#links .destination-cell::before{content:none}
#links .actions-cell{text-align:left;padding-top:.3rem}
.row-menu .menu{left:0;right:auto}
.toolbar-search{flex-basis:100%}}
`.trim()
