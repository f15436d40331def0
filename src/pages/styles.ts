/** The colours of the light theme, as custom properties. */
export const LIGHT_COLOURS =
  '--bg:#f3f4f7;--fg:#1c2230;--muted:#5a6376;--card:#fff;--line:#dce0e8;' +
  '--accent:#2d58e6;--accent-fg:#fff;--error:#b42318'

/** The colours of the dark theme (the system's choice, or the dashboard's theme button). */
export const DARK_COLOURS =
  '--bg:#111418;--fg:#e6e8ee;--muted:#9aa3b3;--card:#1a1e25;' +
  '--line:#2d333d;--accent:#7c9bff;--accent-fg:#0b1020;--error:#ff8a80'

/** The one small stylesheet every page inlines (with the page's nonce): a centred card, phone-first. */
export const STYLESHEET = `
:root{color-scheme:light dark;${LIGHT_COLOURS}}
@media (prefers-color-scheme:dark){:root{${DARK_COLOURS}}}
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem;
background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:34rem;background:var(--card);border:1px solid var(--line);border-radius:12px;
padding:1.5rem}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 .75rem}
p{margin:.5rem 0}
a{color:var(--accent);overflow-wrap:anywhere}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.muted{color:var(--muted)}
.error{color:var(--error);font-weight:600}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
input{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid var(--line);border-radius:8px;
background:transparent;color:inherit}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.6rem 1rem;border-radius:8px;
border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;
text-decoration:none;text-align:center}
.button.secondary{background:transparent;color:var(--accent)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:1rem 0}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
ul{margin:.25rem 0;padding-left:1.2rem}
main.wide{max-width:60rem}
h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.small{font-size:.85rem}
.periods{display:flex;flex-wrap:wrap;gap:.4rem 1rem;margin:.5rem 0}
.figures{display:flex;flex-wrap:wrap;gap:.5rem 2.5rem;margin:1rem 0}
.figure{margin:0}.figure strong{display:block;font-size:1.6rem;line-height:1.2}
.chart{display:block;width:100%;height:auto}
.chart .bar{fill:var(--accent)}.chart .grid{stroke:var(--line);stroke-dasharray:4 4}
.chart .axis{stroke:var(--muted)}.chart .tick{fill:var(--muted);font-size:12px}
.tables{display:grid;grid-template-columns:repeat(auto-fit,minmax(17rem,1fr));gap:0 1.5rem}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{padding:.3rem .4rem;border-bottom:1px solid var(--line);text-align:left;overflow-wrap:anywhere}
th{color:var(--muted);font-weight:600}
.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
@media (max-width:30rem){main{padding:1.1rem}dl{grid-template-columns:1fr;gap:.1rem}dd{margin-bottom:.5rem}
.actions>*{flex:1 1 100%}}
`.trim()
