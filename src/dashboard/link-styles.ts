/**
 * Styles of the link screens (forms, targeting rows, row and bulk actions), in the colours of
 * the pages' stylesheet, so dark mode and phone widths follow from it.
 */
export const LINK_STYLES = `
.link-form .secondary-button,.copy,.row-actions button{background:transparent;color:var(--accent)}
.danger{background:var(--error);border-color:var(--error);color:#fff}
@media (prefers-color-scheme:dark){.danger,button.danger{color:#1a0000}}
.offscreen,.default-submit{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
.link-form fieldset{border:1px solid var(--line);min-width:0}
.link-form legend{font-weight:700;padding:0 .3rem}
.link-form fieldset.panel>legend{float:left;width:100%;padding:0;margin:0 0 .25rem;font-size:1.05rem}
.link-form fieldset.panel>legend+*{clear:both}
.link-form .field label{margin-top:.75rem}
.link-form .hint{margin:.25rem 0 0}
.link-form select{width:100%;max-width:100%;min-width:0}
.check{display:flex;align-items:center;gap:.5rem;margin:.4rem 0}
.check input{width:auto;margin:0}
.check label{margin:0;font-weight:400}
.choices{border:0;padding:0;margin:.75rem 0 0}
.choices legend{padding:0;margin:0 0 .25rem;font-weight:600}
.pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:0 1rem}
.targets{border-radius:8px;margin:1rem 0;padding:.25rem 1rem 1rem}
.target-row{display:grid;grid-template-columns:minmax(10rem,1fr) minmax(12rem,2fr) auto;gap:0 .75rem;align-items:end;margin-bottom:.5rem}
.target-row.values-only{grid-template-columns:minmax(12rem,1fr) minmax(5rem,7rem) auto}
.target-row .row-button{margin-bottom:.05rem}
@media (max-width:40rem){.target-row,.target-row.values-only{grid-template-columns:1fr;border-bottom:1px solid var(--line);padding-bottom:.75rem}
.target-row .row-button{justify-self:start;margin-top:.5rem}}
.errors{border-color:var(--error)}
.link-nav{display:flex;flex-wrap:wrap;gap:.5rem 1rem}
.link-nav form{margin:0}
.link-nav .link-button{background:none;border:0;padding:0;color:var(--accent);font:inherit;text-decoration:underline;cursor:pointer}
.short-link{display:flex;align-items:center;gap:.4rem;flex-wrap:wrap}
.copy{padding:.15rem .5rem;font-size:.85rem}
.row-actions{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center}
.row-actions form{margin:0}
.row-actions button{padding:0;border:0;font-weight:400;text-decoration:underline}
.bulk{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.bulk .filter select{min-width:9rem}
.bulk .filter input{width:14rem;max-width:100%;padding:.45rem .6rem}
#links th{white-space:nowrap}
.select{width:2rem}
.select input{width:1.1rem;height:1.1rem;margin:0}
`.trim()
